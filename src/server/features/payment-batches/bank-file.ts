import {
  type BankFileLayoutSpec,
  type BankFileLine,
  bankHeader,
  bankRecord,
  RECORD_SEPARATOR,
} from '../../../shared/domain/bank-file';
import type { BatchLine } from '../../../shared/schemas/payment-batches';
import { letOthersThrough } from '../../event-loop';

/**
 * The bank file's bytes (issue 53, decision 0053): the layout's text (shared/domain/bank-file.ts)
 * in its encoding, written chunk by chunk as the lines are read.
 */

/** Windows-1252's characters above Latin-1's C1 range (0x80–0x9F), by code point. */
const CP1252_HIGH: Record<number, number> = {
  8364: 0x80,
  8218: 0x82,
  402: 0x83,
  8222: 0x84,
  8230: 0x85,
  8224: 0x86,
  8225: 0x87,
  710: 0x88,
  8240: 0x89,
  352: 0x8a,
  8249: 0x8b,
  338: 0x8c,
  381: 0x8e,
  8216: 0x91,
  8217: 0x92,
  8220: 0x93,
  8221: 0x94,
  8226: 0x95,
  8211: 0x96,
  8212: 0x97,
  732: 0x98,
  8482: 0x99,
  353: 0x9a,
  8250: 0x9b,
  339: 0x9c,
  382: 0x9e,
  376: 0x9f,
};

/** Text as Windows-1252 (what older bank portals read): a character it lacks becomes '?'. */
export function windows1252(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let length = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out[length++] = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : (CP1252_HIGH[code] ?? 0x3f);
  }
  return out.subarray(0, length);
}

export function encode(text: string, encoding: BankFileLayoutSpec['encoding']): Buffer {
  return encoding === 'windows-1252' ? windows1252(text) : Buffer.from(text, 'utf8');
}

function fileLine(line: BatchLine): BankFileLine {
  return {
    holderRut: line.holderRut,
    holderName: line.holderName,
    bankName: line.bankName,
    bankAccountType: line.bankAccountType,
    bankAccountNumber: line.bankAccountNumber,
    amountClp: line.amountClp,
    reference: line.reference,
    email: line.email,
    brokerRut: line.brokerRut,
    brokerName: line.brokerName,
    reservationNumber: line.reservationNumber,
    paymentNumber: line.paymentNumber,
  };
}

/** The file's pieces: the header, then each chunk of lines as it is read (others let through between). */
export async function* bankFilePieces(
  layout: BankFileLayoutSpec,
  chunks: AsyncIterable<readonly BatchLine[]>,
): AsyncGenerator<Buffer> {
  if (layout.hasHeader) yield encode(bankHeader(layout) + RECORD_SEPARATOR, layout.encoding);
  for await (const lines of chunks) {
    let text = '';
    for (const line of lines) text += bankRecord(layout, fileLine(line)) + RECORD_SEPARATOR;
    if (text) yield encode(text, layout.encoding);
    await letOthersThrough();
  }
}
