export { enqueueMail, purgeSealedContent, NOT_SENT_EXPIRED, NOT_SENT_UNREADABLE, type OutgoingMail } from './outbox.repo.js';
export { deriveOutboxKey, type MailContent } from './sealed-content.js';
export { createMailer, type Mailer, type MailMessage } from './mailer.js';
export { deliverDueMail, backoffMs, DELIVERY_DEFAULTS, NOT_SENT_NO_SMTP, type DeliveryResult } from './delivery.js';
export { createMailService, type MailService } from './mail.service.js';
export { renderMail, type RenderedMail } from './render.js';
export { Layout, Paragraph, Note, mailColors, PRODUCT_NAME, type LayoutProps } from './templates/Layout.js';
