import { describe, expect, it } from 'vitest';
import { hasFile, scheduleText } from './deliveryFormat';

describe('deliveries in words', () => {
  it('reads each kind of schedule', () => {
    expect(scheduleText({ scheduleType: 'daily', scheduleOption: '09:30', timezone: 'UTC' })).toBe(
      'daily at 09:30 (UTC)',
    );
    expect(scheduleText({ scheduleType: 'hourly', scheduleOption: '00:15', timezone: 'Asia/Tokyo' })).toBe(
      'hourly at minute 15 (Asia/Tokyo)',
    );
    expect(scheduleText({ scheduleType: 'none', scheduleOption: null, timezone: 'UTC' })).toBe(
      'at every run of the engine',
    );
  });

  it('offers a file only for successful CSV deliveries', () => {
    expect(hasFile({ status: 'success', target: 'CSV download' })).toBe(true);
    expect(hasFile({ status: 'error', target: 'CSV download' })).toBe(false);
    expect(hasFile({ status: 'success', target: 'crm.customers' })).toBe(false);
  });
});
