import type { Rule } from 'eslint';

/** The ESLint rule: a comment cites decisions by number, never the numbers of issues. */
export declare const noIssueCitations: Rule.RuleModule;
declare const plugin: { rules: { 'no-issue-citations': Rule.RuleModule } };
export default plugin;
