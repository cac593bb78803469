/**
 * What a stand-in page of the export says (decision 111): why an item's own pages are not in it, in the reader's
 * language (decision 121) — the account's, or the one the screen asked for. The rest of the export's labels (page
 * numbers, C/n bands) stay English, as the watermark's: the record's language.
 */
export type ExportLanguage = 'en' | 'hi';

const TEXTS = {
  en: {
    gone: 'This letter is no longer in the register, so its pages are not included.',
    refused: 'You are not cleared to see this letter, so its pages are not included.',
    noFile: 'This letter has no scanned copy in the portal.',
    notPdf: 'This item is not a PDF or a picture, so its pages are not included. Open it in the portal.',
    notReady: 'The PDF copy of this document is not ready, so its pages are not included. Open it in the portal.',
    lost: 'The stored copy of this item could not be read, so its pages are not included.',
    unreadablePdf:
      'This item could not be included: its PDF is damaged, encrypted or has no page. Open it in the portal.',
    unreadablePicture: 'This picture could not be included: it cannot be read. Open it in the portal.',
  },
  hi: {
    gone: 'यह पत्र अब रजिस्टर में नहीं है, इसलिए इसके पृष्ठ शामिल नहीं हैं।',
    refused: 'आप यह पत्र देखने के लिए अनुमत नहीं हैं, इसलिए इसके पृष्ठ शामिल नहीं हैं।',
    noFile: 'इस पत्र की स्कैन की गई प्रति पोर्टल में नहीं है।',
    notPdf: 'यह मद PDF या चित्र नहीं है, इसलिए इसके पृष्ठ शामिल नहीं हैं। इसे पोर्टल में खोलें।',
    notReady: 'इस दस्तावेज़ की PDF प्रति अभी तैयार नहीं है, इसलिए इसके पृष्ठ शामिल नहीं हैं। इसे पोर्टल में खोलें।',
    lost: 'इस मद की रखी गई प्रति पढ़ी नहीं जा सकी, इसलिए इसके पृष्ठ शामिल नहीं हैं।',
    unreadablePdf: 'यह मद शामिल नहीं की जा सकी: इसकी PDF क्षतिग्रस्त है, एन्क्रिप्टेड है या इसमें कोई पृष्ठ नहीं है। इसे पोर्टल में खोलें।',
    unreadablePicture: 'यह चित्र शामिल नहीं किया जा सका: इसे पढ़ा नहीं जा सकता। इसे पोर्टल में खोलें।',
  },
} as const satisfies Record<ExportLanguage, Record<string, string>>;

export type ExportTexts = (typeof TEXTS)[ExportLanguage];
export const exportTexts = (language: ExportLanguage): ExportTexts => TEXTS[language];
