import { act, render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';

import { msg } from '#shared/messages/index.ts';

import i18n, { i18nReady, loadMessages, setLanguage, translateCoded, translateMessage } from '#web/i18n/index.ts';

afterEach(async () => {
  await act(() => setLanguage('en'));
  await loadMessages(); // the refusals' texts back for the files that run next in this worker
});

/** The feedback limit's wait as the server sends it (auth/throttle.ts): a coded parameter of a coded sentence. */
const feedbackWait = (minutes: number) =>
  ({
    code: 'site.feedback_rate_limited',
    params: { wait: { code: 'common.wait_minutes', params: { count: minutes } } },
  }) as const;

describe('refusals worded by code (decision 034)', () => {
  it("words the feedback limit's real wait in Hindi (issue 28 item 10)", async () => {
    await i18nReady;
    expect(translateCoded(feedbackWait(5))).toBe('Too many messages from your network. Please try again in 5 minutes.');
    await act(() => setLanguage('hi'));
    expect(translateCoded(feedbackWait(37))).toBe('आपके नेटवर्क से बहुत अधिक संदेश आए हैं। कृपया 37 मिनट बाद पुनः प्रयास करें।');
    expect(translateCoded(feedbackWait(1))).toBe('आपके नेटवर्क से बहुत अधिक संदेश आए हैं। कृपया 1 मिनट बाद पुनः प्रयास करें।');
  });

  it("words a schema's sentence with a number, and a refusal's reason, in Hindi", async () => {
    await act(() => setLanguage('hi'));
    expect(translateMessage(msg('auth.password_too_short', { min: 6 }))).toBe('पासवर्ड कम से कम 6 अक्षरों का होना चाहिए।');
    expect(translateCoded({ code: 'auth.account_rejected_reason', params: { reason: 'Not on the roll' } })).toBe(
      'आपका पंजीकरण अनुमोदित नहीं हुआ। कारण: Not on the roll',
    );
  });
});

/** A refusal on a screen, worded while it renders (as form errors and alerts are). */
function Refusal() {
  useTranslation('common');
  return <p>{translateCoded({ code: 'auth.reset_off' })}</p>;
}

describe("the refusals' texts arriving after the first page (decision 087)", () => {
  it('words again, in Hindi, a refusal drawn before the Hindi texts arrived', async () => {
    await act(() => setLanguage('hi'));
    i18n.removeResourceBundle('hi', 'messages'); // as on a first page, before they are loaded
    render(<Refusal />);
    expect(screen.getByText(/^Password reset by email is not available on this portal\./)).toBeInTheDocument();
    await act(() => loadMessages());
    expect(await screen.findByText(/^इस पोर्टल पर ईमेल से पासवर्ड रीसेट उपलब्ध नहीं है।/)).toBeInTheDocument();
  });

  it('loads the English catalogue with the namespace, and words the code from it', async () => {
    i18n.removeResourceBundle('en', 'messages');
    const catalogue = await loadMessages();
    expect(catalogue?.isMessageCode('auth.reset_off')).toBe(true);
    expect(i18n.hasResourceBundle('en', 'messages')).toBe(true);
    render(<Refusal />);
    expect(screen.getByText(/^Password reset by email is not available on this portal\./)).toBeInTheDocument();
  });
});
