import { createHash, webcrypto } from 'node:crypto';

import { Signer } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * The CMS of a PAdES baseline signature (ETSI EN 319 142-1, B-B level; decision 118): a detached SignedData over the
 * byte ranges' SHA-256, whose signed attributes are the content type, the message digest and ESS
 * signing-certificate-v2 (RFC 5035) naming the signer's certificate; no signing-time attribute (PAdES keeps the time
 * in the signature dictionary's /M). RSA keys, PKCS1 v1.5 with SHA-256: the keys of India's CCA-licensed DSCs.
 */
pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as Crypto }));

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
} as const;

/** A certificate the signatures module cannot sign with: its key is not RSA. */
export class UnsupportedCertificate extends Error {}

const view = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

/** The signer's certificate: the chain's first. */
function signerOf(chain: Uint8Array[]): Uint8Array {
  const [first] = chain;
  if (!first) throw new UnsupportedCertificate('The signer gave no certificate.');
  return first;
}

/** A DER certificate as pkijs reads it; refused unless its key is RSA. */
export function readCertificate(der: Uint8Array): pkijs.Certificate {
  const certificate = pkijs.Certificate.fromBER(view(der));
  if (certificate.subjectPublicKeyInfo.algorithm.algorithmId !== OID.rsaEncryption) {
    throw new UnsupportedCertificate('The signing certificate must hold an RSA key.');
  }
  return certificate;
}

/** The DER of an attribute list sorted as DER sorts a SET OF (by each element's encoding). */
function sorted(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) }));
  return encoded.sort((x, y) => Buffer.compare(x.der, y.der)).map((x) => x.a);
}

function signedAttributesOf(digest: Uint8Array, signerDer: Uint8Array): pkijs.SignedAndUnsignedAttributes {
  const certificate = readCertificate(signerDer);
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      // hashAlgorithm left out: SHA-256 is its DEFAULT (RFC 5035)
      new asn1js.OctetString({ valueHex: view(createHash('sha256').update(signerDer).digest()) }),
      new asn1js.Sequence({
        value: [
          new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: certificate.issuer })] }).toSchema(),
          new asn1js.Integer({ valueHex: certificate.serialNumber.valueBlock.valueHexView.slice().buffer }),
        ],
      }),
    ],
  });
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: view(digest) })] }),
    new pkijs.Attribute({
      type: OID.signingCertificateV2,
      values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
    }),
  ];
  return new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted(attributes) });
}

/**
 * The bytes a signer signs for `digest` (the SHA-256 of the byte ranges): the signed attributes' DER, tagged as the
 * SET OF they are (RFC 5652 §5.4). The signer helper's `/sign` receives exactly these (decision 119).
 */
export function signedAttributesToSign(digest: Uint8Array, signerDer: Uint8Array): Buffer {
  const der = Buffer.from(signedAttributesOf(digest, signerDer).toSchema().toBER(false));
  der[0] = 0x31;
  return der;
}

/** The CMS (ContentInfo, DER) of one signature: the signed attributes for `digest`, the signature over them, the chain. */
export function assembleCms(digest: Uint8Array, chain: Uint8Array[], signature: Uint8Array): Buffer {
  const signer = readCertificate(signerOf(chain));
  const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates: chain.map((der) => pkijs.Certificate.fromBER(view(der))),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        digestAlgorithm: sha256(),
        signedAttrs: signedAttributesOf(digest, signerOf(chain)),
        signatureAlgorithm: new pkijs.AlgorithmIdentifier({
          algorithmId: OID.rsaEncryption,
          algorithmParams: new asn1js.Null(),
        }),
        signature: new asn1js.OctetString({ valueHex: view(signature) }),
      }),
    ],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/** Signs the signed attributes' DER and answers the signature (PKCS1 v1.5, SHA-256): a key here or a helper's. */
export type SignAttributes = (toSign: Buffer) => Promise<Uint8Array>;

/**
 * A @signpdf/signpdf signer making PAdES CMS: given the PDF without its /Contents, it hashes it, has the signed
 * attributes signed (`signAttributes`) and assembles the CMS with the certificate chain (signer first).
 */
export class CadesSigner extends Signer {
  constructor(
    readonly chain: () => Promise<Uint8Array[]>,
    private readonly signAttributes: SignAttributes,
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const chain = await this.chain();
    const digest = createHash('sha256').update(pdfBuffer).digest();
    const signature = await this.signAttributes(signedAttributesToSign(digest, signerOf(chain)));
    return assembleCms(digest, chain, signature);
  }
}
