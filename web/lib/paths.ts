/**
 * Every screen URL of spec §2 in one place (bulletproof-react's config/paths.ts). Links and redirects use these, never
 * a string typed again. `pattern` is what the router matches; `to(...)` builds a link.
 */
const withId = (pattern: string) => ({ pattern, to: (id: string) => pattern.replace(':id', encodeURIComponent(id)) });

export const paths = {
  home: '/',
  login: '/login',
  /** A signed-in session that must pass its second factor first (decision 064). */
  secondFactor: '/login/second-factor',
  register: '/register',
  /** "Forgot password?" (decision 077): the email to send a link to, and the mailed link's page. */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  pendingApproval: '/pending-approval',
  employees: '/employees',
  /** The portal search (decision 015): results of the header box. */
  search: (query: string) => `/search?q=${encodeURIComponent(query)}`,
  labs: '/labs',
  profile: '/profile',
  closeGroupDocs: '/closeGroup',
  directorProfile: '/directorprofile',
  editGroup: withId('/groups/:id/edit'),
  /** Where a saved group edit returns (spec §2); shows the group page. */
  groupAfterEdit: withId('/group/:id'),
  group: withId('/group/id/:id'),
  addGroup: '/add-group',
  myGroup: '/my-group',
  lettersManager: '/dac',
  /** "Marked to me". */
  inbox: '/dac/inbox',
  /** Pendency of letters (decision 020): directors, admins, associate directors. */
  pendency: '/dac/pendency',
  /** Delegation of one's dak while away (decision 078); an admin names a delegate for an officer there too. */
  delegation: '/dac/delegation',
  /** A letter in Letters & Correspondence, found by its Letter ID. */
  letterSearch: (query: string) => `/allLetter?q=${encodeURIComponent(query)}`,
  allLetters: '/allLetter',
  /** "To acknowledge": the notices and circulars the person is asked to acknowledge. */
  acknowledgements: '/acknowledgements',
  /** Acknowledgement reports: publishers, group heads, directors and admins. */
  acknowledgementRequests: '/acknowledgements/requests',
  acknowledgementRequest: withId('/acknowledgements/requests/:id'),
  /** e-Files (decision 107): My files, and one file. */
  efiles: '/efiles',
  efile: withId('/efiles/:id'),
  /** The dispatch register (decision 120): the lab's outward letters. */
  dispatchRegister: '/dispatch-register',
  uploadSoftwareRepo: '/upload-repo',
  viewSoftwareRepos: '/view-repo',
  uploadTrialRepo: '/upload-trialRepo',
  viewTrialRepos: '/view-trialRepo',
  // The site pages of GIGW 3.0, linked from the footer of every page (decision 019).
  help: '/help',
  feedback: '/feedback',
  accessibility: '/accessibility',
  sitemap: '/sitemap',
  terms: '/terms',
  privacy: '/privacy',
  archive: '/archive',
  admin: {
    approval: '/admin/approval',
    addLab: '/admin/add-labs',
    manageGallery: '/admin/manageGallery',
    addGroups: '/admin/add-groups',
    logs: '/admin/logs',
    /** The audit trail: admins, and directors read-only. */
    auditTrail: '/admin/audit-trail',
    closeGroups: '/admin/closeGroup',
    group: withId('/admin/group/:id'),
    root: '/admin',
    manageLab: '/admin/manage-lab',
    manage: '/admin/manage',
    groups: withId('/admin/groups/:id'),
    feedback: '/admin/feedback',
    /** e-Files: the numbering scheme and the heads. */
    efiles: '/admin/efiles',
    /** Text recognised in scans: the files waiting and failed, retry (decision 113). */
    ocr: '/admin/ocr',
    /** The trusted roots of signatures (decision 123). */
    trustedRoots: '/admin/trusted-roots',
  },
} as const;
