/** Stored files: downloads (GET /uploads/…) and the web copies of images (server/modules/files). */
export const files = {
  not_found: 'File not found.',
  open_forbidden: 'You are not allowed to open this file.',
  preview_unavailable: 'Preview is not available for this file.',
  past_end: 'The requested part of the file is past its end.',
  unstampable:
    'This PDF cannot be stamped with your name for download (it is damaged, encrypted or has no pages), so it cannot be sent. Please ask the person who uploaded it for a readable copy.',
  stamp_too_heavy:
    "This PDF is too long or complex to be stamped with your name within the portal's limits, so it cannot be sent. Please ask the person who uploaded it for a shorter copy.",
  image_unreadable: 'The image could not be read. Please choose another photo.',
  image_too_large: 'The image is too large: at most {{max}} megapixels.',
} as const;
