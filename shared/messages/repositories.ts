/**
 * Software and trial repositories (server/modules/repositories, shared/schemas/repository.ts): the words of spec §5
 * Repositories, plus our own for rules the spec leaves to the browser (a URL field) or does not word.
 */
export const repositories = {
  software_source: 'Please provide either a file, a GitHub URL, or a Cloned Repository Path.',
  software_group_and_type: 'Please select both a Group and a Type.',
  metadata_json: 'Invalid JSON format for metadata. Please check your input.',
  trial_required: 'Please fill in all required fields (Group, Type, and upload a File).',
  github_url: 'Please enter a valid GitHub URL starting with http:// or https://.',
  size_in_kb: 'Size (KB) must be a number, 0 or more.',
  duration: 'Duration (minutes) must be a number, 0 or more.',
  too_long: 'This field is too long.',
  metadata_deep: 'Metadata may be nested at most 10 levels deep.',
  metadata_large: 'Metadata must be at most 10 KB.',
  group_not_found: 'The selected group does not exist. Please choose another.',
  not_your_group: 'Associate directors may upload repositories only to their own group.',
  delete_uploader_only: 'Only the person who uploaded this repository or an administrator may delete it.',
  software_not_found: 'Software repository not found.',
  trial_not_found: 'Trial repository not found.',
} as const;
