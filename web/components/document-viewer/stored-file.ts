/** The file of a stored document (/uploads/{area}/{name}): what the viewer and the thumbnail are asked about. */
export const storedFile = (fileUrl: string) => {
  const m = /^\/uploads\/([a-z-]+)\/([0-9a-f-]{36})$/.exec(fileUrl);
  return m ? { area: m[1]!, name: m[2]! } : null;
};
