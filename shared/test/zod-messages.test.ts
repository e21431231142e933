import { expect, it } from 'vitest';
import * as z from 'zod/mini';

// Cleared first: the config is zod's, kept on globalThis, so another test file in the same worker may have set it.
z.config({ localeError: undefined });

// zod/mini sets no messages when it loads (classic zod set its English ones): an issue without a message of ours
// would read "Invalid input". lazySchema sets the English ones before it builds the first schema, so what the API
// and the forms show reads as it did with classic zod.
it("an issue without a message of ours reads in zod's English (set by lazySchema, not by zod/mini)", async () => {
  const { ActivityQuerySchema } = await import('../src/index.js');
  const result = ActivityQuerySchema().safeParse({ limit: '0' });
  expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Too small: expected number to be >=1']);
});

it('messages of ours stay as written', async () => {
  const { LoginSchema, firstIssueMessage } = await import('../src/index.js');
  const result = LoginSchema().safeParse({ email: ' ', password: 'secret1', extra: 1 });
  expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Email is required', expect.any(String)]);
  expect(firstIssueMessage(LoginSchema().safeParse({ email: 'a@b.co', password: 'secret1', 'a b': 1 }).error!)).toBe(
    'Unknown field: "a b"',
  );
  expect(firstIssueMessage(LoginSchema().safeParse({ email: 'a@b', password: 'secret1' }).error!)).toBe(
    'Enter a valid email address',
  );
});
