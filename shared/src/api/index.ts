/** The API contract (`@app/shared/api`): the route table, each route's input and answer, and path building. */
export * from './routes.js';
export * from './inputs.js';
export * from './responses.js';
export * from './roles.js';
