/** The activity log's sentences of drafts for approval (decision 122), spread into `activity`. */
export const draftsActivity = {
  efile_draft_added: 'Wrote draft D/{{seq}} ({{title}}) in file {{number}}',
  efile_draft_version_added: 'Made version v{{version}} of draft D/{{seq}} in file {{number}}',
  efile_draft_put_up: 'Put up draft D/{{seq}} of file {{number}} for approval to {{name}}',
  efile_draft_changes_asked: 'Asked for changes to draft D/{{seq}} of file {{number}}',
  efile_draft_approved: 'Approved and signed draft D/{{seq}} of file {{number}} as C/{{item}}',
} as const;
