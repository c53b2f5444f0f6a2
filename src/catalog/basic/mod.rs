//! The 18 components of the A2UI basic catalog, one file per component or small family.

mod button;
mod card;
mod check_box;
mod choice_picker;
mod date_time_input;
mod divider;
mod icon;
mod image;
mod layout;
mod media;
mod modal;
mod slider;
mod tabs;
mod text;
mod text_field;

use egui::accesskit::Role;

use super::{Catalog, ComponentTraits, NameSource};

/// A generic leaf or container: the default traits.
const PLAIN: ComponentTraits = ComponentTraits::new();
/// A block the web renderer gives `width: 100%`.
const FULL_WIDTH: ComponentTraits = PLAIN.with_full_width(true);
/// A Row or Column: a plain container node.
const FLEX: ComponentTraits = PLAIN.with_role(Role::GenericContainer);

/// Register every basic component renderer with its traits.
pub fn register_all(c: &mut Catalog) {
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
    c.register_with("Row", FLEX, layout::Linear::Row);
    c.register_with("Column", FLEX.with_full_width(true), layout::Linear::Column);
    c.register_with("List", FULL_WIDTH.with_role(Role::List), layout::List);
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
    c.register_with("CheckBox", PLAIN, check_box::CheckBox);
    c.register_with("ChoicePicker", FULL_WIDTH, choice_picker::ChoicePicker);
    c.register_with("Slider", PLAIN, slider::Slider);
    c.register_with("DateTimeInput", PLAIN, date_time_input::DateTimeInput);
}
