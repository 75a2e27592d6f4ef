/**
 * A Vite plugin that gives every page of the demo the same head (charset, viewport, an empty
 * favicon so nothing 404s, a title) and the same header with the navigation, marking the page
 * being shown, and links to what lies beside the site (the API docs). The HTML files then hold
 * only their own content.
 */
import { basename } from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

export interface DemoPage {
  /** The HTML file's name without `.html`. */
  file: string;
  title: string;
}

/** A link of the navigation to something the site does not build itself (the API docs). */
export interface NavLink {
  href: string;
  title: string;
}

export function pageLayoutPlugin(pages: readonly DemoPage[], extraLinks: readonly NavLink[] = []): Plugin {
  return {
    name: 'demo-page-layout',
    transformIndexHtml(_html, { filename }) {
      const current = basename(filename, '.html');
      const page = pages.find((p) => p.file === current);
      const head: HtmlTagDescriptor[] = [
        { tag: 'meta', attrs: { charset: 'utf-8' } },
        { tag: 'meta', attrs: { name: 'viewport', content: 'width=device-width, initial-scale=1' } },
        { tag: 'link', attrs: { rel: 'icon', href: 'data:,' } },
        { tag: 'title', children: `spring-solver · ${page?.title ?? current}` },
      ];
      const links: HtmlTagDescriptor[] = pages.map((p) => ({
        tag: 'a',
        attrs: p.file === current ? { href: `./${p.file}.html`, 'aria-current': 'page' } : { href: `./${p.file}.html` },
        children: p.title,
      }));
      for (const { href, title } of extraLinks) links.push({ tag: 'a', attrs: { href }, children: title });
      const header: HtmlTagDescriptor = {
        tag: 'header',
        children: [{ tag: 'span', attrs: { class: 'title' }, children: 'spring-solver' }, ...links],
        injectTo: 'body-prepend',
      };
      return [...head.map((tag): HtmlTagDescriptor => ({ ...tag, injectTo: 'head-prepend' })), header];
    },
  };
}
