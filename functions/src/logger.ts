import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * Fields of an error that are safe to log: what went wrong, never what was sent. Vendor and SDK
 * errors carry their request (headers with bearer tokens, bodies with passwords) in other
 * enumerable fields — gaxios's `config`, `response`; fetch errors' `request` — so everything else
 * is left out, however an error reaches the logger.
 */
const SAFE_ERROR_FIELDS = ['code', 'status', 'statusCode', 'errno', 'syscall', 'type'] as const;

type LoggedError = ReturnType<LogFormatter['formatError']>;

/** Powertools' default JSON shape, with errors reduced to SAFE_ERROR_FIELDS. */
export class RedactingLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: attributes.lambdaContext?.coldStart,
        function_arn: attributes.lambdaContext?.invokedFunctionArn,
        function_memory_size: attributes.lambdaContext?.memoryLimitInMB,
        function_name: attributes.lambdaContext?.functionName,
        function_request_id: attributes.lambdaContext?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additionalLogAttributes);
  }

  formatError(error: Error): LoggedError {
    const formatted: Record<string, unknown> = {
      name: error.name,
      location: this.getCodeLocation(error.stack),
      message: error.message,
      stack: error.stack,
    };
    const fields = error as unknown as Record<string, unknown>;
    for (const key of SAFE_ERROR_FIELDS) {
      const value = fields[key];
      if (typeof value === 'string' || typeof value === 'number') formatted[key] = value;
    }
    const httpStatus = (fields.$metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    if (typeof httpStatus === 'number') formatted.httpStatusCode = httpStatus;
    if (error.cause instanceof Error) formatted.cause = this.formatError(error.cause);
    return formatted as LoggedError;
  }
}

/** Structured JSON logs. Never pass a request body, a password, a token or a secret to it. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'content-publisher',
  logFormatter: new RedactingLogFormatter(),
});
