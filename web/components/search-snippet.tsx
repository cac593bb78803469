import { Text, type TextProps } from '@mantine/core';

import { snippetParts } from '#shared/search.ts';

/**
 * A search snippet with its matched words in <mark>. The server marks matches with « » in plain text; the parts are
 * rendered as React text, so nothing a user typed into a document is ever read as HTML.
 */
export function SearchSnippet({ snippet, ...props }: TextProps & { snippet: string }) {
  return (
    <Text size="sm" c="gray.8" {...props}>
      {snippetParts(snippet).map((part, i) =>
        part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
      )}
    </Text>
  );
}
