import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** Lambda settings shared by every API function (and asserted by the tests). */
export const API_FUNCTION_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: 1024,
  /** Below API Gateway's 30 s integration limit, so the function answers before the gateway gives up. */
  timeout: Duration.seconds(25),
  logRetention: RetentionDays.ONE_MONTH,
} as const;

/**
 * Makes an ES module bundle able to `require()` Node built-ins from the CommonJS dependencies
 * esbuild inlines into it.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __cpCreateRequire } from 'node:module';const require = __cpCreateRequire(import.meta.url);";

export interface ApiFunctionProps {
  /** The route group this function serves (`auth`, `admin`, …). */
  group: string;
  /** Absolute path of the group's Lambda entry (`functions/src/lambda/<group>.ts`). */
  entry: string;
  /** The npm workspaces root: bundling runs there, with its package-lock.json. */
  projectRoot: string;
  /** Environment variables the function reads (TABLE_NAME, SESSION_SECRET_ARN, …). */
  environment: Record<string, string>;
}

/**
 * One API Lambda function: the group's handler bundled by esbuild (ESM, minified, source maps),
 * Node.js 22 on arm64, with its own log group and its own role. The role starts with nothing but
 * writing to that log group; callers grant the table and the secret.
 */
export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', { retention: API_FUNCTION_DEFAULTS.logRetention });

    // A role of our own instead of the default one with the AWSLambdaBasicExecutionRole managed
    // policy: the function may only write to its own log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Content publisher API function for the ${props.group} routes`,
    });
    this.logGroup.grantWrite(this.role);

    const functionsTsconfig = join(props.projectRoot, 'functions', 'tsconfig.json');
    this.function = new NodejsFunction(this, 'Function', {
      description: `Content publisher API: ${props.group} routes`,
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      runtime: API_FUNCTION_DEFAULTS.runtime,
      architecture: API_FUNCTION_DEFAULTS.architecture,
      memorySize: API_FUNCTION_DEFAULTS.memorySize,
      timeout: API_FUNCTION_DEFAULTS.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: `content-publisher-${props.group}`,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // The Node.js 22 runtime ships the AWS SDK v3: keep it out of the bundle.
        externalModules: ['@aws-sdk/*'],
        ...(existsSync(functionsTsconfig) ? { tsconfig: functionsTsconfig } : {}),
      },
    });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'DESIGN.md §1 fixes the Lambda runtime at Node.js 22 (the version the code is built, bundled and tested for); ' +
        'moving to a newer runtime is a deliberate upgrade, not a drive-by change.',
    });
  }
}
