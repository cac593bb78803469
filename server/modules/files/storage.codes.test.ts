import { describe, expect, it } from 'vitest';

import { buildTestApp } from '#server/test/app.ts';
import { createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

// Decision 034: the store's refusals that carry a value send it as a parameter of their code, so each language words the
// sentence around it (web/i18n/locales/hi/messages.json); the English stays the sentence it always was.

const app = await buildTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) });

describe('the store refuses by code, with its values as params', () => {
  it('a file over the limit: storage.too_large with {limit}', async () => {
    const user = await createUser(app, 'employee');
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(200 * 1024)]);
    const res = await postLetter(app, user, letterFields(), letterPdf('big.pdf', big));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'The file is too large. The limit is 64 KB.',
      message: 'The file is too large. The limit is 64 KB.',
      code: 'storage.too_large',
      params: { limit: '64 KB' },
    });
  });

  it("a file whose content is not its extension's: storage.content_mismatch with {ext}", async () => {
    const user = await createUser(app, 'employee');
    const res = await postLetter(app, user, letterFields(), letterPdf('invoice.pdf', SAMPLE_FILES.exe));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: "The file's content does not match its .pdf extension.",
      code: 'storage.content_mismatch',
      params: { ext: 'pdf' },
      field: 'file',
    });
  });

  it('a type the area does not take: storage.type_not_allowed with {types}', async () => {
    const user = await createUser(app, 'employee');
    const res = await postLetter(app, user, letterFields(), letterPdf('tool.exe', SAMPLE_FILES.exe));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'This file type is not allowed. Allowed types: pdf, doc, docx, jpg, png.',
      code: 'storage.type_not_allowed',
      params: { types: 'pdf, doc, docx, jpg, png' },
      field: 'file',
    });
  });
});
