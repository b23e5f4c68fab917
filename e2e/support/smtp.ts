import fs from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';

const addressesOf = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

/** A real SMTP server on 127.0.0.1 that stores each received message as JSON in `dir`. */
export async function startSmtpServer(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          count += 1;
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
          const record = {
            to: [...new Set([...envelopeTo, ...addressesOf(mail.to)])],
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: new Date().toISOString(),
          };
          const name = `${Date.now()}-${String(count).padStart(5, '0')}.json`;
          // Written under another name and renamed: a worker reading the mailbox meanwhile never sees half a file
          // (it failed with "Unexpected end of JSON input" when it listed the file between its creation and its write).
          const file = path.join(dir, name);
          fs.writeFileSync(`${file}.partial`, JSON.stringify(record, null, 2));
          fs.renameSync(`${file}.partial`, file);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
