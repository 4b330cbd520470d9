/** CSV as RFC 4180 writes it: the one quoting rule of every CSV this service answers. */

/** A field: quoted when it holds a comma, a quote or a line break, with quotes doubled. */
export function csvQuote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Text someone else chose (an e-mail typed at sign-in, a name), made safe for spreadsheets: a leading
 * `=`, `+`, `-`, `@`, tab or carriage return would start a formula there (OWASP "CSV injection"), so it
 * gets a leading apostrophe, which spreadsheets show as text and do not display.
 */
export function csvText(text: string): string {
  return csvQuote(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
}

/** One line of fields, ended by CRLF. */
export function csvLine(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}
