/** Drafts for approval on e-files (server/modules/efiles/efiles.drafts*.ts, shared/schemas/efile-draft.ts; decision 122). */
export const drafts = {
  not_found: 'Draft not found.',
  version_not_found: 'This version of the draft was not found.',
  // Input.
  title_required: 'Please enter the title of the draft.',
  title_too_long: 'The title must be at most {{max}} characters.',
  document_required: 'Please choose a .docx or PDF file.',
  file_type: 'A draft may be uploaded as a .docx or PDF file only.',
  changes_note_required: 'Please say what should change.',
  changes_note_too_long: 'The note must be at most {{max}} characters.',
  // Who may do what (efiles.policy.ts).
  approved_already: 'This draft is approved and can no longer change.',
  not_put_up: 'This draft has not been put up for approval.',
  approver_role: '{{name}} cannot approve drafts. Please choose a group head or a director.',
  approve_forbidden: 'Only a group head or a director holding the file may approve a draft or ask for changes to it.',
  // Signing (decision 118).
  no_seal: "The lab's seal is not installed, so drafts cannot be approved. Please ask an administrator.",
  no_helper: 'No signer for personal signatures is set up. Please approve with the lab seal alone.',
  pdf_not_ready: 'The PDF copy of this .docx is not ready yet. Please try again in a minute.',
  pdf_unavailable: 'This .docx could not be turned into a PDF, so it cannot be signed. Please upload it as a PDF.',
  unsignable: 'This PDF cannot be signed: it is damaged, encrypted, has no page or is signed already.',
  signer_failed: 'The personal signature could not be made: {{reason}}',
} as const;
