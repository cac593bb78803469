import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';

import { noIssueCitations } from './no-issue-citations.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } }).run(
  'no-issue-citations',
  noIssueCitations,
  {
    valid: [
      '// The lab home is kept 10 s (decision 054).',
      "import x from '#server/app.ts'; // an alias, not a citation",
      "const colour = '#555'; /* text in #555 and #0a0a0a on white */",
      '// see https://github.com/timgit/pg-boss/issues/123 and https://example.org/page#section',
      "const name = 'issue 31'; // a string is not a comment",
    ],
    invalid: [
      { code: '// Dak that moves (issue 17).', errors: [{ messageId: 'issue' }] },
      { code: '/** Issue 31 item 2: circulars. */ const a = 1;', errors: [{ messageId: 'issue' }] },
      { code: '// the lab home (issues 4 and 12)', errors: [{ messageId: 'issue' }] },
      { code: '// found by the review (#29)', errors: [{ messageId: 'issue' }] },
      { code: '// see issue #7', errors: [{ messageId: 'issue' }] },
    ],
  },
);
