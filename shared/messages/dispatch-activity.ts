/** The activity log's sentences of the dispatch register and the trusted roots (decisions 120, 123). */
export const dispatchActivity = {
  dispatch_sent: 'Dispatched C/{{seq}} of file {{number}} as {{outward}}',
  trusted_root_added: 'Added the trusted root {{label}}',
  trusted_root_removed: 'Removed the trusted root {{label}}',
} as const;
