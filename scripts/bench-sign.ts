// `npm run bench:sign`: how long the portal takes to sign a 50-page PDF with the lab's seal and to check the
// signatures of a signed one (decision 118; goals: signing p95 under 1.5 s, checking p95 under 500 ms).
//
// Makes a 50-page PDF of typed text and a seal (a root CA and a certificate it issued, openssl, in a temporary folder,
// opened as SIGNING_P12 is), then signs the PDF BENCH_RUNS times (default 30) as the portal does (signPdf: prepared
// in the signing thread, an incremental update with the visible block, the CMS made here), names alternating between
// English and Devanagari; then checks a document signed twice (the seal, then a second signature) BENCH_RUNS times
// (verifyPdf, in its worker thread, against the test root). The first runs warm the threads up and are not counted.
// Prints each one's median, p95 and largest time and the calling thread's event-loop delay, then one JSON line.
import { signingConfig } from '#server/config/signing.ts';
import { sealSigner } from '#server/modules/signatures/seal.ts';
import { sharedSigningThread, signPdf } from '#server/modules/signatures/sign-pdf.ts';
import { sharedVerifyThread, verifyPdf } from '#server/modules/signatures/verify-pdf.ts';
import { makeTestCertificates } from '#server/test/signer-helper.ts';

import { textPdf, timed } from './bench-pdf-setup.ts';

const PAGES = 50;
const RUNS = Number(process.env.BENCH_RUNS || 30);
const WARM_UP = 3;
const SIGN_GOAL_MS = 1500;
const VERIFY_GOAL_MS = 500;

const certs = makeTestCertificates('Bench Lab Seal');
try {
  const seal = signingConfig({ SIGNING_P12: certs.p12Path, SIGNING_P12_PASSWORD: certs.p12Password })!;
  const signer = sealSigner(seal);
  const original = await textPdf(PAGES);
  const who = (i: number) => ({
    name: i % 2 ? 'राम कुमार शर्मा' : 'Anjali Deshmukh',
    designation: 'Director',
    reason: 'Approved',
    location: 'Bench Lab',
    contactInfo: 'director@lab.example',
  });
  const sign = await timed(RUNS, WARM_UP, (i) => signPdf(original, signer, who(i)));
  const twice = await signPdf(await signPdf(original, signer, who(0)), signer, who(1));
  const verify = await timed(RUNS, WARM_UP, async () => {
    const report = await verifyPdf(twice, [certs.rootPem]);
    if (report.signatures.length !== 2 || !report.signatures.every((s) => s.intact && s.signatureValid && s.trusted)) {
      throw new Error('the signed PDF did not check as valid');
    }
  });
  const mb = Math.round((original.length / 1024 / 1024) * 10) / 10;
  console.log(
    `sign: ${PAGES} pages, ${mb} MB, ${RUNS} signatures: p50 ${sign.p50} ms, p95 ${sign.p95} ms, max ${sign.max} ms; event loop p99 ${sign.loopP99} ms (goal p95 < ${SIGN_GOAL_MS} ms)`,
  );
  console.log(
    `verify: ${PAGES} pages signed twice, ${RUNS} checks: p50 ${verify.p50} ms, p95 ${verify.p95} ms, max ${verify.max} ms; event loop p99 ${verify.loopP99} ms (goal p95 < ${VERIFY_GOAL_MS} ms)`,
  );
  console.log(
    JSON.stringify({
      bench: 'sign',
      pages: PAGES,
      runs: RUNS,
      signGoalMs: SIGN_GOAL_MS,
      verifyGoalMs: VERIFY_GOAL_MS,
      sign,
      verify,
      met: sign.p95 < SIGN_GOAL_MS && verify.p95 < VERIFY_GOAL_MS,
    }),
  );
} finally {
  certs.remove();
  await Promise.all([sharedSigningThread().close(), sharedVerifyThread().close()]);
}
