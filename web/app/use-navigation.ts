import { buildNavigation, type NavEntry } from '#web/components/nav-bar/navigation.ts';
import { useAcknowledgementCount } from '#web/features/acknowledgements/keys.ts';
import { type Session, useSession } from '#web/features/auth/use-session.ts';
import { useGroupMenu } from '#web/features/groups/keys.ts';
import { useOnlyLab } from '#web/features/labs/api.ts';
import { useInboxCount } from '#web/features/letters/keys.ts';

/**
 * The main navigation of the signed-in person (or visitor), from the same data the header's menus use: the Sitemap
 * lists exactly this, so it never needs a hand-kept copy (decision 019).
 */
export function useNavigation(): { session: Session; lab: ReturnType<typeof useOnlyLab>; navigation: NavEntry[] } {
  const session = useSession();
  const lab = useOnlyLab();
  const groups = useGroupMenu({ enabled: session.isSignedIn });
  // Decision 020: the badge of "Marked to me" (letters not yet received).
  const inbox = useInboxCount(session.isSignedIn);
  // The badge of "To acknowledge".
  const acknowledgements = useAcknowledgementCount(session.isSignedIn);
  const navigation = buildNavigation({
    role: session.role,
    groups: session.isSignedIn ? (groups.data ?? []) : [],
    noLabYet: lab.data === null,
    inboxCount: inbox.data?.pending ?? 0,
    acknowledgementCount: acknowledgements.data,
  });
  return { session, lab, navigation };
}
