/** The site pages and feedback (server/modules/site, shared/schemas/site.ts). */
export const site = {
  feedback_rate_limited: 'Too many messages from your network. Please try again in {{wait}}.',
  page_not_found: 'No such page.',
  english_required: 'The English text is required.',
  hindi_required: 'The Hindi text is required.',
  feedback_name_required: 'Please enter your name.',
  feedback_email_invalid: 'Please enter a valid email address.',
  feedback_category_required: 'Please choose what your feedback is about.',
  feedback_subject_required: 'Please enter a subject.',
  feedback_message_required: 'Please write your feedback.',
  feedback_reply_required: 'Please write a reply before marking the feedback answered.',
  feedback_status_invalid: 'Please choose a status.',
  feedback_not_found: 'Feedback not found.',
} as const;
