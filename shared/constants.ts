/** Business constants of spec §5 and §9, shared by server and web. */

export const ROLES = ['employee', 'director', 'associate_director', 'pending_director', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** Roles a person may ask for when registering (spec §5 Registration: Role choices). */
export const REGISTER_ROLES = ['employee', 'director', 'associate_director', 'pending_director'] as const;
export type RegisterRole = (typeof REGISTER_ROLES)[number];
/** Roles an administrator may grant on approval. */
export const APPROVAL_ROLES = ['employee', 'director', 'associate_director', 'admin'] as const;

export const USER_STATUSES = ['pending', 'approved', 'rejected', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const CADRES = ['DRDS', 'DRTC', 'Admin', 'Other'] as const;
export type Cadre = (typeof CADRES)[number];
/** Designations per cadre; cadre Other takes free text. */
export const DESIGNATIONS: Record<Exclude<Cadre, 'Other'>, readonly string[]> = {
  DRDS: ["Scientist 'B'", "Scientist 'C'", "Scientist 'D'"],
  DRTC: ["Technical Officer 'A'", "Technical Officer 'B'"],
  Admin: ['Admin Officer', 'Store Officer'],
};
export const GENDERS = ['Male', 'Female', 'Other'] as const;
export const MARITAL_STATUSES = ['Single', 'Married', 'Other'] as const;
export const BLOOD_GROUPS = ['A+', 'A-', 'AB+', 'AB-', 'B+', 'B-', 'O+', 'O-'] as const;
export const CONTACT_TYPES = ['Email', 'Phone', 'Address', 'Other'] as const;
export const SOFTWARE_REPO_TYPES = ['Document', 'Code', 'ZIP File'] as const;
export const LETTER_CLASSIFICATIONS = ['Normal', 'Confidential', 'Secret'] as const;
/**
 * How sensitive a close-group document is (decision 072): Unclassified unless chosen. Confidential
 * and Secret follow the letters' clearance rules; Restricted and above are watermarked when downloaded as PDF.
 */
export const DOCUMENT_CLASSIFICATIONS = ['Unclassified', 'Restricted', 'Confidential', 'Secret'] as const;
/** Priority of a marking (decision 020), as Indian government offices write it on dak. */
export const DAK_PRIORITIES = ['Normal', 'Urgent', 'Most Immediate'] as const;
/** Officers one marking may go to at once. */
export const DAK_MAX_RECIPIENTS = 20;

export const PASSWORD_MIN_LENGTH = 6;
export const MOBILE_DIGITS = 10;

export const GALLERY_PAGE_SIZE = 3;
export const GALLERY_ADVANCE_MS = 3000;
export const GALLERY_SLIDE_WIDTH_PX = 500;
/** Longer side of the stored profile photo (shown at avatar size; twice that for sharp screens). */
export const PROFILE_PHOTO_MAX_PX = 400;
export const NEWS_FLASH_LOOP_SECONDS = 40;
export const NEWS_FLASH_HEIGHT_PX = 40;
export const CLOSE_GROUP_MESSAGE_MS = 5000;
export const TOAST_LIMIT = 20;
export const DEFAULT_DIRECTOR_DESIGNATION = 'Director';
export const DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION = 'Assistant Director';
/** Default and largest page for lists that page on the server. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** File extensions accepted per upload kind (spec §5 and §9). */
export const FILE_TYPES = {
  letter: ['pdf', 'doc', 'docx', 'jpg', 'png'],
  trialRepo: ['pdf', 'doc', 'docx', 'mp4', 'zip', 'rar', 'txt', 'jpg', 'jpeg', 'png', 'gif'],
  groupFile: ['pdf', 'ppt', 'pptx', 'xls', 'xlsx', 'mp4', 'webm', 'mkv', 'avi', 'mov'],
  labNotice: ['pdf', 'doc', 'docx', 'png', 'jpg', 'jpeg'],
  product: ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp'],
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp'],
  document: ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'png', 'jpg', 'jpeg', 'zip'],
  softwareRepo: ['pdf', 'doc', 'docx', 'txt', 'zip', 'rar', 'tar', 'gz', '7z', 'png', 'jpg', 'jpeg'],
} as const;
export type FileKind = keyof typeof FILE_TYPES;

/** `accept` attribute for a file input of the given kind. */
export const acceptFor = (kind: FileKind) => FILE_TYPES[kind].map((ext) => `.${ext}`).join(',');

/**
 * The range the document viewer reads a PDF in (pdf.js's rangeChunkSize, decision 085); a PDF the preview job gives
 * the viewer's update (decision 088) is several of these long.
 */
export const VIEWER_RANGE_BYTES = 65_536;

/** Every date the portal accepts lies in these years (year 0000 reached PostgreSQL and failed). */
export const DATE_YEAR_MIN = 1900;
export const DATE_YEAR_MAX = 2100;

/**
 * Why a scan's text was not recognised (decision 113): encrypted, more pages than OCR_MAX_PAGES, larger than
 * OCR_MAX_BYTES, longer than OCR_TIMEOUT_SECONDS, ocrmypdf not installed, or unreadable by it.
 */
export const OCR_FAILURES = [
  'encrypted',
  'too_many_pages',
  'too_large',
  'timed_out',
  'ocr_missing',
  'unreadable',
] as const;
export type OcrFailure = (typeof OCR_FAILURES)[number];
export const OCR_STATUSES = ['pending', 'done', 'not_needed', 'failed'] as const;
export type OcrStatus = (typeof OCR_STATUSES)[number];
