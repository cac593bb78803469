import { useParams } from 'react-router';

import { EfilePage } from '#web/features/efiles/components/efile-page.tsx';

/** /efiles/:id — one e-file (decision 107): its page sets its own title, the file's number. */
export default function EfileRoute() {
  const { id = '' } = useParams();
  return <EfilePage key={id} id={id} />;
}
