//! The 18 components of the A2UI basic catalog, one file per component or small family.
//!
//! A client of the render core like any host's catalog: everything here is built on the
//! public component API ([`ComponentContext`](crate::render::ComponentContext), the slot protocol,
//! the flex engine), and nothing under `render/` imports it.

mod button;
mod card;
mod check_box;
mod choice_picker;
mod controls;
mod date_time_input;
mod divider;
mod icon;
mod image;
mod list;
mod margin;
mod media;
mod modal;
mod row_column;
mod slider;
mod tabs;
mod text;
mod text_field;

use egui::accesskit::Role;

use crate::catalog::{Catalog, ComponentTraits, NameSource};
use crate::eval::FunctionRegistry;
use crate::protocol::Version;

/// A generic leaf or container: the default traits.
const PLAIN: ComponentTraits = ComponentTraits::new();
/// A block the web renderer gives `width: 100%`.
const FULL_WIDTH: ComponentTraits = PLAIN.with_full_width(true);
/// A Row or Column: a plain container node.
const FLEX: ComponentTraits = PLAIN.with_role(Role::GenericContainer);

/// Register every basic component renderer with its traits.
fn register_all(c: &mut Catalog) {
    c.register_with(
        "Text",
        // Never justified (its wrapped words would be); named by its text.
        PLAIN
            .with_fills_width(false)
            .with_name_source(NameSource::Text("text")),
        text::Text,
    );
    c.register_with("Image", PLAIN, image::Image);
    c.register_with(
        "Icon",
        PLAIN.with_name_source(NameSource::Symbol("name")),
        icon::Icon,
    );
    let media = PLAIN.with_role(Role::Group);
    c.register_with("Video", media, media::Media::Video);
    c.register_with("AudioPlayer", media, media::Media::Audio);
    c.register_with("Row", FLEX, row_column::Linear::Row);
    c.register_with(
        "Column",
        FLEX.with_full_width(true),
        row_column::Linear::Column,
    );
    c.register_with("List", FULL_WIDTH.with_role(Role::List), list::List);
    c.register_with("Card", PLAIN.with_role(Role::Group), card::Card);
    c.register_with("Tabs", PLAIN, tabs::Tabs);
    c.register_with("Modal", PLAIN, modal::Modal);
    c.register_with("Divider", PLAIN, divider::Divider);
    c.register_with("Button", PLAIN, button::Button);
    // Fills its width itself (the text box asks for all of it); a justified slot would
    // only justify its label and messages word by word.
    c.register_with(
        "TextField",
        FULL_WIDTH.with_fills_width(false),
        text_field::TextField,
    );
    // Drawn inside the control margin, which a Row or Column gives their slots.
    c.register_with("CheckBox", PLAIN.with_inset(true), check_box::CheckBox);
    c.register_with("ChoicePicker", FULL_WIDTH, choice_picker::ChoicePicker);
    c.register_with("Slider", PLAIN.with_inset(true), slider::Slider);
    c.register_with("DateTimeInput", PLAIN, date_time_input::DateTimeInput);
}

impl Catalog {
    /// The basic catalog: all 18 components, every basic function, serving the basic (and
    /// minimal) catalog ids of v0.8, v0.9/v0.9.1 and v1.0.
    pub fn basic() -> Self {
        let mut c = Self::empty().with_functions(FunctionRegistry::basic());
        for (id, v) in [
            (crate::protocol::STANDARD_CATALOG_V0_8, Version::V0_8),
            (
                "https://a2ui.org/specification/v0_8/catalogs/minimal/minimal_catalog.json",
                Version::V0_8,
            ),
            (crate::protocol::BASIC_CATALOG_V0_9, Version::V0_9),
            (crate::protocol::MINIMAL_CATALOG_V0_9, Version::V0_9),
            (crate::protocol::BASIC_CATALOG_V1_0, Version::V1_0),
        ] {
            c = c.with_catalog_id(id, v);
        }
        register_all(&mut c);
        c
    }
}
