/** The site pages and feedback (server/modules/site). */
export const site = {
  feedback_rate_limited: 'Too many messages from your network. Please try again in {{wait}}.',
} as const;
