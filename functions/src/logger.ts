import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs. Never pass a request body, a password, a token or a secret to it. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'content-publisher' });
