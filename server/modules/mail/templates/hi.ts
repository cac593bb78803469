import { formatDate } from '#shared/format.ts';

import type { NoticeItem } from '../mail.kinds.ts';
import type { MailTemplates } from './index.ts';

/** हिन्दी मेल (decision 076): the portal's Hindi words (web/i18n/locales/hi), Indian dates in Hindi ("21 नव॰ 2026"). */
const ROLES = {
  employee: 'कर्मचारी',
  director: 'निदेशक',
  associate_director: 'सहयोगी निदेशक',
  admin: 'प्रशासक',
} as const;

const PRIORITIES = { Normal: 'सामान्य', Urgent: 'तत्काल', 'Most Immediate': 'अति तत्काल' } as const;

const dear = (name: string) => `प्रिय ${name},`;

const on = (date: string | null) => (date ? formatDate(date, date, 'hi') : '');

/** एक सूचना एक वाक्य में; वर्गीकृत पत्र केवल अपनी पत्र आईडी से। */
function noticeLine(n: NoticeItem): string {
  const about = n.title ? ` (${n.title})` : '';
  switch (n.kind) {
    case 'letter_marked':
      return `पत्र ${n.ref}${about} आपको अंकित किया गया${n.who ? `, ${n.who} द्वारा` : ''}।`;
    case 'letter_returned':
      return `पत्र ${n.ref}${about} आपको वापस भेजा गया${n.who ? `, ${n.who} द्वारा` : ''}।`;
    case 'letter_due_tomorrow':
      return `आपके पास का पत्र ${n.ref}${about} कल (${on(n.date)}) नियत है।`;
    case 'letter_overdue_held':
      return `आपके पास का पत्र ${n.ref}${about} अतिदेय है: इसकी नियत तिथि ${on(n.date)} थी।`;
    case 'letter_escalated':
      return `आपके समूह के ${n.who ?? 'एक अधिकारी'} के पास का पत्र ${n.ref}${about} अतिदेय है: इसकी नियत तिथि ${on(n.date)} थी।`;
    case 'acknowledgement_requested':
      return `कृपया "${n.ref}" की पावती ${on(n.date)} तक दें।`;
    case 'acknowledgement_due':
      return `अनुस्मारक: कृपया "${n.ref}" की पावती ${on(n.date)} तक दें।`;
    case 'acknowledgement_overdue':
      return `"${n.ref}" की पावती ${on(n.date)} तक देनी थी और अभी भी आपकी प्रतीक्षा में है।`;
    case 'close_group_ending':
      return `क्लोज़ ग्रुप "${n.ref}" ${on(n.date)} को समाप्त हो रहा है।`;
    case 'registration_received':
      return `${n.ref}${n.title ? ` <${n.title}>` : ''} ने पंजीकरण किया है और स्वीकृति की प्रतीक्षा में है।`;
    case 'efile_sent':
      return `फ़ाइल ${n.ref}${about} आपको भेजी गई${n.who ? `, ${n.who} द्वारा` : ''}।`;
    case 'efile_overdue_held':
      return `आपके पास की फ़ाइल ${n.ref}${about} अतिदेय है: इसकी नियत तिथि ${on(n.date)} थी।`;
    case 'efile_escalated':
      return `${n.who ?? 'एक अधिकारी'} के पास की फ़ाइल ${n.ref}${about} अतिदेय है: इसकी नियत तिथि ${on(n.date)} थी।`;
  }
}

const NOTICE_SUBJECTS: Record<NoticeItem['kind'], (n: NoticeItem) => string> = {
  letter_marked: (n) => `पत्र आपको अंकित किया गया: ${n.ref}`,
  letter_returned: (n) => `पत्र आपको वापस भेजा गया: ${n.ref}`,
  letter_due_tomorrow: (n) => `पत्र कल नियत है: ${n.ref}`,
  letter_overdue_held: (n) => `पत्र अतिदेय है: ${n.ref}`,
  letter_escalated: (n) => `आपके समूह में अतिदेय: ${n.ref}`,
  acknowledgement_requested: () => 'पावती देने के लिए एक परिपत्र',
  acknowledgement_due: () => 'अनुस्मारक: पावती देने के लिए एक परिपत्र',
  acknowledgement_overdue: () => 'पावती देने के लिए परिपत्र अतिदेय है',
  close_group_ending: (n) => `क्लोज़ ग्रुप समाप्त हो रहा है: ${n.ref}`,
  registration_received: () => 'एक पंजीकरण स्वीकृति की प्रतीक्षा में है',
  efile_sent: (n) => `फ़ाइल आपको भेजी गई: ${n.ref}`,
  efile_overdue_held: (n) => `फ़ाइल अतिदेय है: ${n.ref}`,
  efile_escalated: (n) => `आपके समूह की फ़ाइल अतिदेय है: ${n.ref}`,
};

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

  notice: (p, link) => ({
    subject: NOTICE_SUBJECTS[p.item.kind](p.item),
    greeting: dear(p.name),
    body: [noticeLine(p.item)],
    action: { label: 'लैब पोर्टल खोलें', url: link },
  }),

  digest: (p, link) => ({
    subject: `आपका लैब पोर्टल सारांश: ${p.items.length} ${p.items.length === 1 ? 'सूचना' : 'सूचनाएँ'}`,
    greeting: dear(p.name),
    body: ['आपके पिछले सारांश के बाद से:', ...p.items.map((n) => `• ${noticeLine(n)}`)],
    action: { label: 'लैब पोर्टल खोलें', url: link },
    after: ['कौन-सी मेल और कब मिले, यह आप मेरा खाता में चुन सकते हैं।'],
  }),

  dispatch: (p) => ({
    subject: `${p.lab} से पत्र ${p.outwardNumber}`,
    greeting: dear(p.name),
    body: [
      `${p.lab} का दिनांक ${on(p.date)} का पत्र ${p.outwardNumber} संलग्न है।`,
      ['विषय', p.subject],
      'संलग्न पीडीएफ़ डिजिटल रूप से हस्ताक्षरित है; कोई भी पीडीएफ़ रीडर उसके हस्ताक्षर को सत्यापित कर सकता है।',
    ],
  }),

  password_reset: (p, link) => ({
    subject: 'अपना लैब पोर्टल पासवर्ड रीसेट करें',
    greeting: dear(p.name),
    body: ['आपके लैब पोर्टल खाते का पासवर्ड रीसेट करने का अनुरोध मिला है। नया पासवर्ड चुनने के लिए यह लिंक 30 मिनट के भीतर खोलें।'],
    action: { label: 'नया पासवर्ड चुनें', url: link },
    after: ['यह लिंक केवल एक बार काम करता है। यदि आपने यह अनुरोध नहीं किया है, तो इस संदेश को अनदेखा करें: आपका पासवर्ड नहीं बदलेगा।'],
  }),

  password_elsewhere: (p, link) => ({
    subject: 'आपका लैब पोर्टल पासवर्ड',
    greeting: dear(p.name),
    body: [
      p.where === 'directory'
        ? 'आपके लैब पोर्टल खाते का पासवर्ड रीसेट करने का अनुरोध मिला है। आपका खाता लैब डायरेक्टरी से लॉग इन करता है, इसलिए पोर्टल आपका कोई पासवर्ड नहीं रखता: इसे लैब डायरेक्टरी में बदलें, या उसके प्रशासक से कहें।'
        : 'आपके लैब पोर्टल खाते का पासवर्ड रीसेट करने का अनुरोध मिला है। आपका खाता सिंगल साइन-ऑन से लॉग इन करता है, इसलिए पोर्टल आपका कोई पासवर्ड नहीं रखता: इसे लैब की साइन-इन सेवा में बदलें।',
    ],
    action: { label: 'लॉग इन पृष्ठ खोलें', url: link },
    after: ['यदि आपने यह अनुरोध नहीं किया है, तो इस संदेश को अनदेखा करें: कुछ नहीं बदला है।'],
  }),
};
