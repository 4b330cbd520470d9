const ID = /^[1-9][0-9]{0,15}$/;

/** A row id given as text or a number (a path parameter, a JSON field), or null when it is not one. */
export function parseId(raw: string | number | null | undefined): number | null {
  const text = String(raw ?? '');
  return ID.test(text) ? Number(text) : null;
}
