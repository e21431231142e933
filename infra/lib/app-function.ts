import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  LAMBDA_ESBUILD,
  ON_DEMAND_MODULES,
  installLambdaModulesCommand,
  onDemandModulesOf,
  splitLambdaBundleCommand,
} from './bundling.js';
import type { LambdaModules } from './lambda-modules.js';

const require = createRequire(import.meta.url);

/** Runtime settings every function of the app shares (docs/architecture.md). */
export const FUNCTION_RUNTIME = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  logRetention: RetentionDays.ONE_MONTH,
} as const;

/**
 * npm settings for installing `nodeModules` into the asset: the packages the Lambda runtime
 * (linux, arm64, glibc) needs, whatever machine synthesizes; no install scripts (sharp ships
 * prebuilt binaries as optional dependencies, its script would only try to build from source).
 * No audit, funding notice or update check: each is work (the audit a registry request) on every one of the
 * functions' installs, at every synth with bundling, for packages the project's own install already audited.
 */
export const LAMBDA_NPM_INSTALL_ENV: Readonly<Record<string, string>> = {
  npm_config_os: 'linux',
  npm_config_cpu: 'arm64',
  npm_config_libc: 'glibc',
  npm_config_ignore_scripts: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/**
 * The alias every caller invokes (API routes, schedules, the job queue, async jobs): a deployment moves
 * it to the new version gradually and can move it back (deployment.ts); nothing invokes $LATEST.
 */
export const LIVE_ALIAS_NAME = 'live';

export interface AppFunctionProps {
  /** Short name: the route group (`auth`, …) or `worker`; used in descriptions and the service name. */
  name: string;
  /** What the function does, for the function's and the role's descriptions. */
  description: string;
  roleDescription: string;
  /** Absolute path of the Lambda entry (`functions/src/lambda/<name>.ts`). */
  entry: string;
  /** The npm workspaces root: bundling runs there, with its package-lock.json. */
  projectRoot: string;
  /** Environment variables the function reads (TABLE_NAME, …); more can be added later. */
  environment: Record<string, string>;
  memorySize: number;
  timeout: Duration;
  /** How long its log group keeps the lines (default FUNCTION_RUNTIME.logRetention). */
  logRetention?: RetentionDays;
  /** Concurrent executions set aside for this function (and its ceiling); absent: the account's shared pool. */
  reservedConcurrentExecutions?: number;
}

/**
 * One Lambda function of the app: its entry bundled by esbuild (ESM, minified, source maps),
 * Node.js 22 on arm64, with its own log group and its own role. The role starts with nothing but
 * writing to that log group; the stack grants the rest. No X-Ray tracing: the code is not
 * instrumented (no SDK or HTTPS subsegments), so a trace would only repeat the duration the log and
 * the Lambda metrics already give, at a price (docs/operations.md, Logs).
 * Powertools settings: POWERTOOLS_SERVICE_NAME (`content-publisher-<name>`) and
 * POWERTOOLS_METRICS_NAMESPACE (the stack name, so each stage's metrics stay apart, stage.ts).
 */
export class AppFunction extends Construct {
  readonly function: NodejsFunction;
  /**
   * LIVE_ALIAS_NAME on the function's current version (a new version whenever its code or settings
   * change): what every trigger, permission and grant names.
   */
  readonly alias: Alias;
  readonly logGroup: LogGroup;
  readonly role: Role;
  /** The esbuild/npm bundling options used (kept for the tests: bundling is skipped there). */
  readonly bundling: BundlingOptions;
  /**
   * The on-demand packages installed next to its bundle, with their versions and npm settings (lambda-modules.ts);
   * undefined when it carries none.
   */
  readonly modules: LambdaModules | undefined;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention ?? FUNCTION_RUNTIME.logRetention });

    // A role of our own instead of the default one with the AWSLambdaBasicExecutionRole managed
    // policy: the function may only write to its own log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.roleDescription,
    });
    this.logGroup.grantWrite(this.role);

    const functionsTsconfig = join(props.projectRoot, 'functions', 'tsconfig.json');
    // The on-demand packages this function's code imports are installed next to its bundle, as NodejsFunction's
    // `nodeModules` would install them, but each distinct set once per machine (lambda-modules.ts); none is bundled.
    const nodeModules = [...onDemandModulesOf(props.name)];
    this.modules =
      nodeModules.length > 0
        ? {
            dependencies: dependencyVersions(dirname(props.entry), nodeModules),
            lockFile: join(props.projectRoot, 'package-lock.json'),
            environment: { ...LAMBDA_NPM_INSTALL_ENV },
          }
        : undefined;
    const modules = this.modules;
    this.bundling = {
      format: OutputFormat.ESM,
      target: LAMBDA_ESBUILD.target,
      minify: LAMBDA_ESBUILD.minify,
      sourceMap: true,
      sourcesContent: false,
      mainFields: [...LAMBDA_ESBUILD.mainFields],
      banner: LAMBDA_ESBUILD.banner,
      esbuildArgs: { '--conditions': LAMBDA_ESBUILD.conditions.join(',') },
      // Everything else is bundled, the AWS SDK included (see bundling.ts).
      externalModules: [...ON_DEMAND_MODULES],
      ...(existsSync(functionsTsconfig) ? { tsconfig: functionsTsconfig } : {}),
      // NodejsFunction writes one file; the shipped bundle is split into chunks (bundling.ts), built last.
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (inputDir, outputDir) => [
          ...(modules ? [installLambdaModulesCommand(inputDir, outputDir, modules)] : []),
          splitLambdaBundleCommand(inputDir, outputDir, relative(props.projectRoot, props.entry)),
        ],
      },
    };

    this.function = new NodejsFunction(this, 'Function', {
      description: props.description,
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      runtime: FUNCTION_RUNTIME.runtime,
      architecture: FUNCTION_RUNTIME.architecture,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      // No TracingConfig (and no X-Ray grant): Lambda's default then traces only a request a caller
      // sampled, and none of ours does (an HTTP API, EventBridge Scheduler and SQS send no trace header).
      tracing: Tracing.DISABLED,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: `content-publisher-${props.name}`,
        POWERTOOLS_METRICS_NAMESPACE: Stack.of(this).stackName,
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: this.bundling,
    });

    this.alias = new Alias(this, 'Live', { aliasName: LIVE_ALIAS_NAME, version: this.function.currentVersion });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The Lambda runtime is fixed at Node.js 22 (the version the code is built, bundled and tested for); ' +
        'moving to a newer runtime is a deliberate upgrade, not a drive-by change.',
    });
  }

  /** Adds (or replaces) an environment variable. */
  addEnvironment(key: string, value: string): void {
    this.function.addEnvironment(key, value);
  }
}

/**
 * Each package's version as NodejsFunction reads them for `nodeModules`: the nearest package.json above the entry
 * (dependencies, devDependencies or peerDependencies), else the installed package's own version.
 */
function dependencyVersions(from: string, modules: readonly string[]): Record<string, string> {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
    dir = dirname(dir);
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const declared = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies };
  return Object.fromEntries(
    modules.map((name) => {
      const version = declared[name] ?? (require(`${name}/package.json`) as { version?: string }).version;
      if (!version) throw new Error(`No version of ${name} in ${join(dir, 'package.json')} nor installed`);
      return [name, version];
    }),
  );
}
