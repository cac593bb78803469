/** Checking signed PDFs and the trusted roots (decision 123). */
export const signatures = {
  not_pdf: 'Only a PDF can be checked for signatures.',
  unreadable: 'This PDF cannot be read to check its signatures.',
  too_heavy: 'This PDF took too long to check.',
  pem_required: 'Paste the root certificate (PEM).',
  pem_invalid: 'This is not a PEM certificate.',
  label_required: 'Give the root a name.',
  root_exists: 'This root is on the list already.',
  root_not_found: 'No such trusted root.',
} as const;
