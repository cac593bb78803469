import { act } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { msg } from '#shared/messages/index.ts';

import { i18nReady, setLanguage, translateCoded, translateMessage } from '#web/i18n/index.ts';

afterEach(async () => {
  await act(() => setLanguage('en'));
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
