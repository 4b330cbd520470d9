export { decodeBatch, decodeRecord, recordBytes } from './decode';
export { type BulkRecord, encodePart, encodeRecords, gzip } from './encode';
export { BulkFormatError, type BulkFormatErrorCode, isBulkFormatError } from './errors';
export { defaultPartLimits, type PartLimits, type RecordLimits } from './limits';
export { type RecordBatch, RecordScanner } from './scanner';
export {
  ABSENT,
  decodeRecordIn,
  decodeValue,
  decodeValues,
  encodeValue,
  mapEntries,
  skipValue,
  textBytes,
} from './values';
