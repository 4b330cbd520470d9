import { describe, expect, it } from 'vitest';
import { parseJsonLines, readJsonLines } from './jsonLines';

/** A streamed answer in small chunks that split lines anywhere, as the network does. */
function streamed(text: string, chunk = 5): Response {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, i + chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200 });
}

describe('parseJsonLines', () => {
  it('skips blank lines and stops at the limit', () => {
    expect(parseJsonLines('[1]\n\n[2]\n', 10)).toEqual({ lines: [[1], [2]], truncated: false });
    expect(parseJsonLines('[1]\n[2]\n[3]', 2)).toEqual({ lines: [[1], [2]], truncated: true });
  });
});

describe('readJsonLines', () => {
  it('reads lines split across chunks, including a last line without a newline', async () => {
    expect(await readJsonLines(streamed('["a",1]\n["bb",22]\n{"x":"é"}'), 100)).toEqual({
      lines: [['a', 1], ['bb', 22], { x: 'é' }],
      truncated: false,
    });
  });

  it('says when there were more lines than asked for', async () => {
    expect(await readJsonLines(streamed('[1]\n[2]\n[3]\n'), 2)).toEqual({ lines: [[1], [2]], truncated: true });
  });

  it('turns an error body into an ApiError with the server message', async () => {
    const answer = Response.json({ error: 'Not Found', message: 'The job has no result.', text: '' }, { status: 404 });
    await expect(readJsonLines(answer, 2)).rejects.toMatchObject({ status: 404, message: 'The job has no result.' });
  });
});
