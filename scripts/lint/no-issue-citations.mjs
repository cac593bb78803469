// ESLint rule: a comment cites the decision that records a rule (docs/decisions/NNN), never an issue number, which
// means nothing to a reader of the repository. Flags the word issue (or issues) followed by a number, with or
// without "#", and a bare "#" with a number in a comment; not a hex colour ("#555", "#0a0a0a"), an import alias ('#server/…'), a URL's anchor or path
// ("…/issues/31", "page#section"), nor anything outside comments (test names and strings are left to their owners).

/** the word, then the number */
const ISSUE = /\b[Ii]ssues?\s+#?\d+\b/;
/** "#" and a number after a space or an opening bracket, but not a three- or six-digit colour */
const BARE = /(?:^|[\s([])#(?!(?:\d{3}|\d{6})\b)\d+\b/;

/** @type {import('eslint').Rule.RuleModule} */
export const noIssueCitations = {
  meta: {
    type: 'suggestion',
    docs: { description: 'cite decisions (docs/decisions/NNN) in comments, never issue numbers' },
    messages: {
      issue: 'A comment cites "{{text}}": cite the decision that records it (decision NNN), or drop the citation.',
    },
    schema: [],
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const m = ISSUE.exec(comment.value) ?? BARE.exec(comment.value);
          if (m) context.report({ loc: comment.loc, messageId: 'issue', data: { text: m[0].trim() } });
        }
      },
    };
  },
};

export default { rules: { 'no-issue-citations': noIssueCitations } };
