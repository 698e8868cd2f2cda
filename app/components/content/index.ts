// The content component set (issue 15, field kinds): one renderer for rich text, images, links,
// click-to-load embeds, tables and slice zones, shared by content pages, special pages, notices and /preview.
export { RichText, InlineText, groupListItems } from './RichText';
export { ContentImage } from './ContentImage';
export { ContentLink, ContentButton, ExternalMark, SafeAnchor, isExternalHref } from './ContentLink';
export { Embed } from './Embed';
export { ContentTable } from './ContentTable';
export { SliceZone, SliceView } from './SliceZone';
export { PageContent } from './PageContent';
