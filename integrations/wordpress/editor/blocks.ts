/**
 * The block editor's side of the four blocks: a control for each attribute in the block's sidebar and
 * a live preview, the block as the server renders it (the real element, which the script tag defines
 * in the editor too). The blocks' names, titles and attributes come from their block.json, which
 * WordPress hands to the editor; saving stores the attributes only, the page is rendered on the server.
 * Compiled to a plain script using the `wp.*` globals (npm run build).
 */
const { createElement: el, Fragment } = wp.element;
const { InspectorControls, useBlockProps } = wp.blockEditor;
const { PanelBody, TextControl, ToggleControl, SelectControl, Disabled } = wp.components;
const { __ } = wp.i18n;

/** Labels of the attributes, in the editor's language. */
const labels: Record<string, string> = {
  mode: __('Sign-in opens', 'loyalty-widgets'),
  businessAccountId: __('Business account id (empty for all)', 'loyalty-widgets'),
  limit: __('Items per page (1 to 50)', 'loyalty-widgets'),
  claim: __('Claim buttons on campaigns', 'loyalty-widgets'),
  autoplay: __('Rotate campaigns', 'loyalty-widgets'),
  currency: __('Currency (e.g. EUR; empty for the settings page’s)', 'loyalty-widgets'),
  label: __('Accessible name', 'loyalty-widgets'),
  campaignId: __('Campaign id', 'loyalty-widgets'),
  requireSignin: __('Members only (shoppers sign in first)', 'loyalty-widgets'),
  allowMultiple: __('Allow more than one coupon per shopper', 'loyalty-widgets'),
  compact: __('Compact', 'loyalty-widgets'),
  category: __('Category (empty for all)', 'loyalty-widgets'),
};
const modeLabels: Record<string, string> = {
  popup: __('in a popup', 'loyalty-widgets'),
  redirect: __('in the same window', 'loyalty-widgets'),
};

function control(name: string, schema: WpAttributeSchema, props: WpEditProps): WpNode {
  const value = props.attributes[name];
  const label = labels[name] ?? name;
  const set = (next: string | number | boolean): void => props.setAttributes({ [name]: next });
  if (schema.type === 'boolean') return el(ToggleControl, { key: name, label, checked: Boolean(value), onChange: set });
  if (schema.enum) {
    const options = schema.enum.map((option) => ({ value: option, label: modeLabels[option] ?? option }));
    return el(SelectControl, { key: name, label, value, options, onChange: set });
  }
  if (schema.type === 'number') {
    return el(TextControl, {
      key: name,
      label,
      type: 'number',
      min: 1,
      max: 50,
      value: value ?? '',
      onChange: (next: string) => set(Math.min(50, Math.max(1, Number.parseInt(next, 10) || 1))),
    });
  }
  return el(TextControl, { key: name, label, value: value ?? '', onChange: set });
}

// Registered on the server from block.json (attributes, title, icon); WordPress merges that in here.
for (const tag of ['loyalty-signin-button', 'campaign-carousel', 'coupon-claim', 'business-directory']) {
  wp.blocks.registerBlockType(`loyalty-widgets/${tag}`, {
    edit(props) {
      const schemas = wp.blocks.getBlockType(props.name)?.attributes ?? {};
      const controls = Object.entries(schemas)
        .filter(([name]) => name in labels)
        .map(([name, schema]) => control(name, schema, props));
      return el(
        Fragment,
        null,
        el(InspectorControls, null, el(PanelBody, { title: __('Settings', 'loyalty-widgets') }, ...controls)),
        el(
          'div',
          useBlockProps(),
          // A preview: the shopper-facing controls are not pressed while editing.
          el(Disabled, null, el(wp.serverSideRender, { block: props.name, attributes: props.attributes })),
        ),
      );
    },
    save: () => null,
  });
}
