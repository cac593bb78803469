/**
 * Saves a file by a link the browser follows with its download cookie (decision 003), as a plain link of the page
 * would. Used after the file's record was read through the API, which asks for the step-up first when the server
 * wants one (decision 066).
 */
export function followLink(href: string, name: string | null) {
  const link = document.createElement('a');
  link.href = href;
  link.download = name ?? '';
  document.body.append(link);
  link.click();
  link.remove();
}
