import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** A Lambda context for calling an API handler directly, as the auth function. */
export const lambdaContext = {
  functionName: 'auth',
  awsRequestId: 'req-1',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:1:function:auth',
} as Context;

/** The API Gateway (HTTP API, payload 2.0) event of POST /api/auth/logout, a public route without a body. */
export const logoutEvent = (headers: Record<string, string> = {}): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /api/auth/logout',
    rawPath: '/api/auth/logout',
    rawQueryString: '',
    headers: { host: 'abc123.execute-api.us-east-1.amazonaws.com', ...headers },
    requestContext: {
      http: {
        method: 'POST',
        path: '/api/auth/logout',
        protocol: 'HTTP/1.1',
        sourceIp: '130.176.1.1',
        userAgent: 'test',
      },
      requestId: 'r',
      routeKey: 'POST /api/auth/logout',
      stage: '$default',
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;
