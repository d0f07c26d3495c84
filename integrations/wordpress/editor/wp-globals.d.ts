/** The parts of WordPress's `wp` globals the block editor script uses (WordPress 6.1 and later). */
type WpNode = unknown;
type WpCreateElement = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => WpNode;

interface WpAttributeSchema {
  type: 'string' | 'number' | 'boolean';
  enum?: string[];
}

interface WpEditProps {
  name: string;
  attributes: Record<string, string | number | boolean | undefined>;
  setAttributes: (changes: Record<string, string | number | boolean>) => void;
}

declare const wp: {
  blocks: {
    getBlockType: (name: string) => { attributes: Record<string, WpAttributeSchema> } | undefined;
    registerBlockType: (name: string, settings: { edit: (props: WpEditProps) => WpNode; save: () => null }) => unknown;
  };
  element: { createElement: WpCreateElement; Fragment: unknown };
  blockEditor: {
    InspectorControls: unknown;
    useBlockProps: (props?: Record<string, unknown>) => Record<string, unknown>;
  };
  components: {
    PanelBody: unknown;
    TextControl: unknown;
    ToggleControl: unknown;
    SelectControl: unknown;
    Disabled: unknown;
  };
  serverSideRender: unknown;
  i18n: { __: (text: string, domain: string) => string };
};
