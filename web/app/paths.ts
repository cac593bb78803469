/**
 * Every screen URL of spec §2 in one place (bulletproof-react's config/paths.ts). Links and redirects use these, never
 * a string typed again. `pattern` is what the router matches; `to(...)` builds a link.
 */
const withId = (pattern: string) => ({ pattern, to: (id: string) => pattern.replace(':id', encodeURIComponent(id)) });

export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  pendingApproval: '/pending-approval',
  employees: '/employees',
  /** The header search box (decision 011): the staff directory, filtered. */
  employeeSearch: (query: string) => `/employees?q=${encodeURIComponent(query)}`,
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
  allLetters: '/allLetter',
  uploadSoftwareRepo: '/upload-repo',
  viewSoftwareRepos: '/view-repo',
  uploadTrialRepo: '/upload-trialRepo',
  viewTrialRepos: '/view-trialRepo',
  admin: {
    approval: '/admin/approval',
    addLab: '/admin/add-labs',
    manageGallery: '/admin/manageGallery',
    addGroups: '/admin/add-groups',
    logs: '/admin/logs',
    closeGroups: '/admin/closeGroup',
    group: withId('/admin/group/:id'),
    root: '/admin',
    manageLab: '/admin/manage-lab',
    manage: '/admin/manage',
    groups: withId('/admin/groups/:id'),
  },
} as const;
