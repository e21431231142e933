#!/usr/bin/env node
import { buildApp } from '../lib/app.js';

// Run by the CDK CLI from the repository root (cdk.json: "app": "npx tsx infra/bin/app.ts").
const { app } = buildApp();
app.synth();
