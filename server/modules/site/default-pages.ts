import type { SitePageKey } from '#shared/schemas/site.ts';

/**
 * The text of Terms of use and Privacy policy until an admin saves their own (decision 019). Plain
 * text: a blank line starts a new paragraph. Written for an intranet portal of a government laboratory, after the
 * model pages of GIGW 3.0.
 */
export const DEFAULT_SITE_PAGES: Record<SitePageKey, { en: string; hi: string }> = {
  terms: {
    en: [
      'This portal is the intranet of the laboratory. It is provided for the lab’s staff and for visitors who want to read about the lab. By using it you accept these terms.',
      'Content. The information on the public pages (about the lab, its notices, circulars, products and gallery) is published by the lab for general information. Every effort is made to keep it correct and current; the date of the last update is shown on each page and notice. In case of doubt, the signed original of a notice or circular prevails.',
      'Accounts. Staff accounts are personal. Do not share your password or let anyone else use your sign-in. An administrator approves every new account and may deactivate an account that is misused. A sign-in lasts a set time; the portal warns you two minutes before it ends, and you may stay signed in.',
      'Use of documents. Letters, repositories, group files and close-group documents are for official use by those who may open them. Do not copy them outside the lab or upload material you are not entitled to share. Uploads are checked by type and size and are logged.',
      'Activity log. Sign-ins and every change made through the portal are recorded with the person and the time, and administrators can read this log.',
      'Links. Links to other sites are given for convenience; the lab is not responsible for their content.',
      'Changes. These terms may be revised by the administrator; the date of the last revision is shown on this page. Questions can be sent through the Feedback page.',
    ].join('\n\n'),
    hi: [
      'यह पोर्टल प्रयोगशाला का इंट्रानेट है। यह प्रयोगशाला के कर्मचारियों और प्रयोगशाला के बारे में पढ़ना चाहने वाले आगंतुकों के लिए है। इसका उपयोग करके आप इन शर्तों को स्वीकार करते हैं।',
      'सामग्री। सार्वजनिक पृष्ठों की जानकारी (प्रयोगशाला के बारे में, इसकी सूचनाएँ, परिपत्र, उत्पाद और गैलरी) प्रयोगशाला द्वारा सामान्य जानकारी के लिए प्रकाशित की जाती है। इसे सही और अद्यतन रखने का पूरा प्रयास किया जाता है; प्रत्येक पृष्ठ और सूचना पर अंतिम अद्यतन की तिथि दिखाई जाती है। संदेह होने पर सूचना या परिपत्र की हस्ताक्षरित मूल प्रति मान्य होगी।',
      'खाते। कर्मचारियों के खाते व्यक्तिगत हैं। अपना पासवर्ड किसी को न बताएँ और न ही किसी और को अपने साइन-इन का उपयोग करने दें। प्रत्येक नए खाते को व्यवस्थापक स्वीकृत करता है और दुरुपयोग होने पर खाता निष्क्रिय कर सकता है। साइन-इन एक निश्चित समय तक रहता है; पोर्टल उसके समाप्त होने से दो मिनट पहले चेतावनी देता है, और आप साइन इन बने रह सकते हैं।',
      'दस्तावेज़ों का उपयोग। पत्र, रिपॉज़िटरी, समूह फ़ाइलें और क्लोज़ ग्रुप दस्तावेज़ केवल उन्हें खोलने के अधिकारी लोगों के आधिकारिक उपयोग के लिए हैं। इन्हें प्रयोगशाला से बाहर न ले जाएँ और ऐसी सामग्री अपलोड न करें जिसे साझा करने का आपको अधिकार न हो। अपलोड की जाँच प्रकार और आकार से होती है और उनका रिकॉर्ड रखा जाता है।',
      'गतिविधि लॉग। साइन-इन और पोर्टल में किया गया हर परिवर्तन व्यक्ति और समय के साथ दर्ज होता है, और व्यवस्थापक इस लॉग को पढ़ सकते हैं।',
      'लिंक। अन्य साइटों के लिंक सुविधा के लिए दिए गए हैं; उनकी सामग्री के लिए प्रयोगशाला उत्तरदायी नहीं है।',
      'परिवर्तन। व्यवस्थापक इन शर्तों को संशोधित कर सकता है; अंतिम संशोधन की तिथि इस पृष्ठ पर दिखाई जाती है। प्रश्न प्रतिक्रिया पृष्ठ से भेजे जा सकते हैं।',
    ].join('\n\n'),
  },
  privacy: {
    en: [
      'This policy says what personal information the portal keeps, why, and who can see it.',
      'Visitors. Reading the public pages needs no account. The portal sets no tracking or advertising cookies and uses no outside analytics. Your language choice is kept only in your own browser.',
      'Staff. When you register, the portal keeps what you enter: name, email, role, date of birth, mobile, address, designation, cadre, intercom, official email addresses, PIS and AEBAS numbers and your employment period, and later your profile photo, skills and qualifications. Administrators and you can see your whole profile; other staff see only your name, email, role, designation and intercom in the directory.',
      'Sign-in. Your password is stored only as a one-way hash. A sign-in token is kept in your browser, and a cookie that only this portal can read lets files open in a new tab. Signing out removes both.',
      'Feedback. A message sent through the Feedback page keeps your name, email, subject and message, and is read by the administrators, who may reply.',
      'Activity log. Sign-ins and changes are recorded with the person and the time, to keep the records accountable. Administrators can read this log.',
      'Sharing. Personal information is not shared outside the laboratory except where the law requires it.',
      'Corrections. You can correct your profile yourself at any time. For anything else, write to the administrator through the Feedback page.',
    ].join('\n\n'),
    hi: [
      'यह नीति बताती है कि पोर्टल कौन-सी व्यक्तिगत जानकारी रखता है, क्यों, और उसे कौन देख सकता है।',
      'आगंतुक। सार्वजनिक पृष्ठ पढ़ने के लिए किसी खाते की आवश्यकता नहीं है। पोर्टल कोई ट्रैकिंग या विज्ञापन कुकी नहीं लगाता और किसी बाहरी विश्लेषण सेवा का उपयोग नहीं करता। आपकी भाषा का चयन केवल आपके अपने ब्राउज़र में रखा जाता है।',
      'कर्मचारी। पंजीकरण करते समय आप जो भरते हैं, पोर्टल उसे रखता है: नाम, ईमेल, भूमिका, जन्म तिथि, मोबाइल, पता, पदनाम, संवर्ग, इंटरकॉम, आधिकारिक ईमेल पते, पीआईएस और एईबीएएस संख्या तथा आपकी सेवा अवधि, और बाद में आपकी प्रोफ़ाइल फ़ोटो, कौशल और योग्यताएँ। आपकी पूरी प्रोफ़ाइल आप और व्यवस्थापक देख सकते हैं; अन्य कर्मचारी निर्देशिका में केवल आपका नाम, ईमेल, भूमिका, पदनाम और इंटरकॉम देखते हैं।',
      'साइन-इन। आपका पासवर्ड केवल एकतरफ़ा हैश के रूप में रखा जाता है। साइन-इन टोकन आपके ब्राउज़र में रखा जाता है, और एक कुकी, जिसे केवल यह पोर्टल पढ़ सकता है, फ़ाइलों को नए टैब में खोलने देती है। साइन आउट करने पर दोनों हट जाते हैं।',
      'प्रतिक्रिया। प्रतिक्रिया पृष्ठ से भेजे गए संदेश में आपका नाम, ईमेल, विषय और संदेश रखा जाता है, जिसे व्यवस्थापक पढ़ते हैं और उत्तर दे सकते हैं।',
      'गतिविधि लॉग। अभिलेखों की जवाबदेही के लिए साइन-इन और परिवर्तन व्यक्ति और समय के साथ दर्ज किए जाते हैं। व्यवस्थापक इस लॉग को पढ़ सकते हैं।',
      'साझा करना। कानून द्वारा आवश्यक होने के अतिरिक्त व्यक्तिगत जानकारी प्रयोगशाला के बाहर साझा नहीं की जाती।',
      'सुधार। आप अपनी प्रोफ़ाइल स्वयं कभी भी सुधार सकते हैं। अन्य किसी बात के लिए प्रतिक्रिया पृष्ठ से व्यवस्थापक को लिखें।',
    ].join('\n\n'),
  },
};
