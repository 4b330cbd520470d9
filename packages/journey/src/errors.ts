/** Why a graph operation could not be applied (a caller error, not a journey rule violation). */
export type GraphOperationErrorCode =
  | 'stage.unknown'
  | 'step.unknown'
  | 'step.id_taken'
  | 'step.type_mismatch'
  | 'slot.unknown'
  | 'slot.required'
  | 'insert.end_not_last'
  | 'branch.unknown'
  | 'variant.unknown'
  | 'variant.control_required'
  | 'graph.edge_unknown';

export class GraphOperationError extends Error {
  override readonly name = 'GraphOperationError';
  constructor(
    readonly code: GraphOperationErrorCode,
    message: string,
  ) {
    super(message);
  }
}
