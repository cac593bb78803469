/** The file store's refusals: receiving an upload and keeping it (server/modules/files). */
export const storage = {
  full: "The portal's storage is full. Tell the administrator.",
  unavailable: 'The file store is not available right now. Please try again in a moment.',
  not_multipart: 'Expected a multipart/form-data request.',
  malformed: 'The upload was incomplete or malformed. Please try again.',
  only_one_file: 'Only one file may be sent.',
  unexpected_file_field: 'Unexpected file field "{{field}}".',
  text_nul: 'Text must not contain NUL characters.',
  name_nul: 'A file name must not contain NUL characters.',
  type_not_allowed: 'This file type is not allowed. Allowed types: {{types}}.',
  too_large: 'The file is too large. The limit is {{limit}}.',
  empty: 'The file is empty.',
  content_mismatch: "The file's content does not match its .{{ext}} extension.",
  malware_found: 'The file was refused: the malware scan found {{signature}}.',
  scan_unavailable: 'Files cannot be checked for malware right now, so uploads are paused. Please try again later.',
} as const;
