import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  registerOnDashboard,
  withAppAndBrowser,
  invitationLink,
  lookAt,
} from './harness.js';

const hasBrowser = browserAvailable();

/** A GET of the API from inside the page with an X-Workspace header (undefined: none). */
const getIn = (page: Page, path: string, workspace: string | undefined) =>
  page.evaluate(
    async ({ path, workspace }) => {
      const res = await fetch(path, { headers: workspace ? { 'x-workspace': workspace } : {} });
      return { status: res.status, text: await res.text() };
    },
    { path, workspace },
  );

describe.skipIf(!hasBrowser)('workspaces journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('the owner creates a team and invites a writer, who registers through the link and writes there; the owner sees it, an outsider gets 404', async () => {
    const { app, browser } = journey;
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const owner = await ownerContext.newPage();
    await registerOnDashboard(owner, app, ADA);
    // A user alone: no switcher.
    expect(await owner.getByRole('combobox', { name: 'Workspace' }).count()).toBe(0);

    // Invitations activate accounts (the admin's choice, Admin page).
    await owner.getByRole('link', { name: 'Admin' }).click();
    await owner.getByRole('checkbox', { name: /registered through a workspace invitation/ }).check();
    await owner.getByText('Settings saved').first().waitFor();

    await owner.getByRole('button', { name: /Ada/ }).first().click();
    await owner.getByRole('button', { name: 'Workspaces' }).click();
    await owner.waitForURL(/\/workspaces$/);
    await owner.getByLabel('New team workspace').fill('Acme Marketing');
    await owner.getByRole('button', { name: 'Create workspace' }).click();
    const switcher = owner.getByRole('combobox', { name: 'Workspace' });
    await switcher.waitFor();
    await owner.getByRole('heading', { name: 'Members of Acme Marketing' }).waitFor();

    await owner.getByLabel('E-mail address').fill('wendy@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('writer');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('wendy@example.com').first().waitFor();
    await lookAt(owner, 'workspaces-01-owner');

    // The writer registers through the e-mailed link and lands in the team workspace.
    const link = await invitationLink(app, 'wendy@example.com');
    const writerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const writer = await writerContext.newPage();
    await writer.goto(link);
    await writer.getByRole('heading', { name: 'Join Acme Marketing' }).waitFor();
    await lookAt(writer, 'workspaces-02-invitation');
    await writer.getByLabel('Name', { exact: true }).fill('Wendy');
    await writer.getByLabel('Surname').fill('Writer');
    await writer.getByLabel('Password').fill('typewriter');
    await writer.getByRole('button', { name: 'Create account and join' }).click();
    await writer.waitForURL(/\/dashboard$/);
    const writerSwitcher = writer.getByRole('combobox', { name: 'Workspace' });
    await writerSwitcher.waitFor();
    expect(await writerSwitcher.locator('option:checked').textContent()).toBe('Acme Marketing (Writer)');
    await lookAt(writer, 'workspaces-03-writer-dashboard');

    // The writer creates an article there (the form's call carries the workspace).
    await writer.getByRole('button', { name: '+ New Article' }).click();
    await writer.waitForURL(/\/create/);
    await writer.locator('[name="title"]').fill('Team launch post');
    await writer.locator('[name="topic"]').fill('The launch');
    await writer.getByRole('button', { name: 'Create & Schedule' }).click();
    await writer.waitForURL(/articleId=/);
    const articleId = new URL(writer.url()).searchParams.get('articleId')!;
    const writerEditor = writer.getByRole('dialog', { name: 'Generated Content' });
    await writerEditor.getByRole('textbox', { name: 'Blog content' }).waitFor();
    expect(await writerEditor.getByRole('button', { name: 'GPT' }).count()).toBe(2);
    await lookAt(writer, 'workspaces-03b-writer-editor');
    await writer.keyboard.press('Escape');

    const teamId = await writer.evaluate(() => window.localStorage.getItem('workspace'));
    expect(teamId).toBeTruthy();

    // A writer schedules but does not publish: the card has Schedule, no Publish Now, and the editor opens.
    await writer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();
    const writerCard = writer.getByRole('article', { name: 'Team launch post' });
    await writerCard.waitFor();
    await writerCard.getByRole('region', { name: 'LinkedIn' }).getByRole('group').waitFor();
    await writerCard.getByRole('button', { name: 'Schedule LinkedIn' }).waitFor();
    expect(await writerCard.getByRole('button', { name: /^Publish Now/ }).count()).toBe(0);
    await lookAt(writer, 'workspaces-04-writer-schedule');

    // The owner sees it on the Schedule page of the team, not in the personal workspace.
    await owner.getByRole('link', { name: 'Schedule' }).click();
    await owner.getByRole('heading', { name: 'Team launch post' }).waitFor();
    await switcher.selectOption({ label: 'Personal' });
    await owner.getByText('Team launch post').waitFor({ state: 'detached' });
    expect((await getIn(owner, `/api/articles/${articleId}`, undefined)).status).toBe(404);
    expect((await getIn(owner, `/api/articles/${articleId}`, teamId!)).status).toBe(200);

    // Someone outside the workspace: 404 with the workspace named, and from their own.
    const outsiderContext = await browser.newContext();
    const outsider = await outsiderContext.newPage();
    await outsider.goto(app.url);
    const registered = await callApi(outsider, '/api/auth/register', {
      name: 'Otto',
      surname: 'Outsider',
      email: 'otto@example.com',
      password: 'outsider1',
      timezone: 'Europe/London',
    });
    expect(registered.status).toBe(201);
    const users = (await callApi(owner, '/api/admin/users')).json.users as { _id: string; email: string }[];
    const otto = users.find((u) => u.email === 'otto@example.com')!;
    await owner.evaluate(
      (id) =>
        fetch(`/api/admin/users/${id}/status`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ isActive: true }),
        }),
      otto._id,
    );
    expect(
      (await callApi(outsider, '/api/auth/login', { email: 'otto@example.com', password: 'outsider1' })).status,
    ).toBe(200);
    for (const workspace of [teamId!, undefined]) {
      const res = await getIn(outsider, `/api/articles/${articleId}`, workspace);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('Team launch post');
    }
    expect((await getIn(outsider, '/api/articles', teamId!)).status).toBe(404);

    // Otto has an account: invited as a reviewer, he opens the link signed out, logs in on it and joins there.
    await switcher.selectOption({ label: 'Acme Marketing (Owner)' });
    await owner.getByRole('button', { name: /Ada/ }).first().click();
    await owner.getByRole('button', { name: 'Workspaces' }).click();
    await owner.getByRole('heading', { name: 'Members of Acme Marketing' }).waitFor();
    await owner.getByLabel('E-mail address').fill('otto@example.com');
    await owner.getByLabel('Role', { exact: true }).selectOption('reviewer');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('otto@example.com').first().waitFor();
    const ottoLink = await invitationLink(app, 'otto@example.com');
    const reviewerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const reviewer = await reviewerContext.newPage();
    await reviewer.goto(ottoLink);
    await reviewer.getByRole('heading', { name: 'Join Acme Marketing' }).waitFor();
    await reviewer.getByRole('button', { name: 'Log in', exact: true }).click();
    const login = reviewer.getByRole('dialog');
    expect(await login.getByLabel('Email').inputValue()).toBe('otto@example.com');
    await login.getByLabel('Password').fill('outsider1');
    await login.getByRole('button', { name: 'Login', exact: true }).click();
    // Back on the invitation, signed in: Join, then the team's dashboard.
    await reviewer.getByRole('button', { name: 'Join Acme Marketing' }).click();
    await reviewer.waitForURL(/\/dashboard$/);
    const reviewerSwitcher = reviewer.getByRole('combobox', { name: 'Workspace' });
    await reviewerSwitcher.waitFor();
    expect(await reviewerSwitcher.locator('option:checked').textContent()).toBe('Acme Marketing (Reviewer)');
    await lookAt(reviewer, 'workspaces-05-reviewer-dashboard');
    // A reviewer reads: no + New Article, no actions on the card; the editor opens read-only.
    expect(await reviewer.getByRole('button', { name: /New/ }).count()).toBe(0);
    await reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();
    const reviewerCard = reviewer.getByRole('article', { name: 'Team launch post' });
    await reviewerCard.waitFor();
    expect(await reviewerCard.getByRole('button', { name: /^(Schedule|Reschedule|Publish Now|Edit)/ }).count()).toBe(0);
    await lookAt(reviewer, 'workspaces-06-reviewer-schedule');
    await reviewerCard.getByRole('link', { name: 'Team launch post' }).click();
    const editor = reviewer.getByRole('dialog', { name: 'Generated Content' });
    await editor.getByRole('textbox', { name: 'Blog content' }).waitFor();
    expect(await editor.getByRole('textbox', { name: 'Blog content' }).getAttribute('readonly')).not.toBeNull();
    expect(await editor.getByRole('button', { name: 'GPT' }).count()).toBe(0);
    await lookAt(reviewer, 'workspaces-07-reviewer-editor');
    await reviewer.keyboard.press('Escape');
    // Settings: the connections' status, read-only, and whom to ask; no form.
    await reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const connections = reviewer.getByRole('region', { name: 'Connections' });
    await connections.getByText('Ask the workspace owner to connect or change them.', { exact: false }).waitFor();
    await connections.getByText('Not connected').first().waitFor();
    expect(await reviewer.getByRole('button', { name: /Save|Connect|Test/ }).count()).toBe(0);
    await lookAt(reviewer, 'workspaces-08-reviewer-settings');
    await reviewerContext.close();

    await writerContext.close();
    await outsiderContext.close();
    await ownerContext.close();
  });
});
