import { useParams } from 'react-router';

import { RequestReport } from '#web/features/acknowledgements/components/request-report.tsx';

/** /acknowledgements/requests/{id} — one acknowledgement report (decision 074): counts by group, who has not, the CSV. */
export default function AcknowledgementRequestRoute() {
  const { id = '' } = useParams();
  return <RequestReport key={id} id={id} />;
}
