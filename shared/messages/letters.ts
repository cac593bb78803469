/** The letters register and the dak (server/modules/letters). */
export const letters = {
  bad_cursor: 'This list has changed. Please open it again.',
  register_bad_cursor: 'This list has changed. Please search again.',
  holder_not_cleared_one:
    'This letter is held by {{last}}, who is not cleared for {{classification}} letters. It must be closed or marked to someone else first.',
  holder_not_cleared_other:
    'This letter is held by {{names}} and {{last}}, who are not cleared for {{classification}} letters. It must be closed or marked to someone else first.',
} as const;
