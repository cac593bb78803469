import { formatDate } from '#shared/format.ts';

import type { MailTemplates } from './index.ts';

/** हिन्दी मेल (issue 32): the portal's Hindi words (web/i18n/locales/hi), Indian dates in Hindi ("21 नव॰ 2026"). */
const ROLES = {
  employee: 'कर्मचारी',
  director: 'निदेशक',
  associate_director: 'सहयोगी निदेशक',
  admin: 'प्रशासक',
} as const;

const PRIORITIES = { Normal: 'सामान्य', Urgent: 'तत्काल', 'Most Immediate': 'अति तत्काल' } as const;

const dear = (name: string) => `प्रिय ${name},`;

export const hi: MailTemplates = {
  frame: { footer: 'यह संदेश लैब पोर्टल द्वारा भेजा गया है। कृपया इसका उत्तर न दें।' },

  account_approved: (p, link) => ({
    subject: 'आपका लैब पोर्टल खाता स्वीकृत हो गया है',
    greeting: dear(p.name),
    body: [`लैब पोर्टल पर आपका पंजीकरण स्वीकृत हो गया है। अब आप ${p.group} में ${ROLES[p.role]} के रूप में लॉग इन कर सकते हैं।`],
    action: { label: 'लॉग इन करें', url: link },
  }),

  account_rejected: (p) => ({
    subject: 'आपका लैब पोर्टल पंजीकरण स्वीकृत नहीं हुआ',
    greeting: dear(p.name),
    body: [
      'लैब पोर्टल पर आपका पंजीकरण स्वीकृत नहीं किया गया।',
      ['कारण', p.reason],
      'यदि आपको लगता है कि यह त्रुटि है, तो कृपया प्रशासक से संपर्क करें।',
    ],
  }),

  letter_marked: (p, link) => ({
    subject: `${PRIORITIES[p.priority]} पत्र आपको अंकित किया गया: ${p.letterRef}`,
    greeting: dear(p.name),
    body: [
      `${p.fromName} ने पत्र ${p.letterRef} आपको अंकित किया है, प्राथमिकता: ${PRIORITIES[p.priority]}।`,
      ...(p.subject ? [['विषय', p.subject] as [string, string]] : []),
      ...(p.dueDate ? [['नियत तिथि', formatDate(p.dueDate, p.dueDate, 'hi')] as [string, string]] : []),
      'कृपया इसे अपने इनबॉक्स में प्राप्त करें।',
    ],
    action: { label: 'अपना इनबॉक्स खोलें', url: link },
  }),

  letter_returned: (p, link) => ({
    subject: `पत्र आपको वापस भेजा गया: ${p.letterRef}`,
    greeting: dear(p.name),
    body: [
      `${p.fromName} ने पत्र ${p.letterRef} आपको वापस भेजा है।`,
      ...(p.subject ? [['विषय', p.subject] as [string, string]] : []),
      ...(p.remarks ? [['टिप्पणी', p.remarks] as [string, string]] : []),
    ],
    action: { label: 'अपना इनबॉक्स खोलें', url: link },
  }),

  password_reset: (p, link) => ({
    subject: 'अपना लैब पोर्टल पासवर्ड रीसेट करें',
    greeting: dear(p.name),
    body: ['आपके लैब पोर्टल खाते का पासवर्ड रीसेट करने का अनुरोध मिला है। नया पासवर्ड चुनने के लिए यह लिंक 30 मिनट के भीतर खोलें।'],
    action: { label: 'नया पासवर्ड चुनें', url: link },
    after: ['यह लिंक केवल एक बार काम करता है। यदि आपने यह अनुरोध नहीं किया है, तो इस संदेश को अनदेखा करें: आपका पासवर्ड नहीं बदलेगा।'],
  }),
};
