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

use super::Catalog;

/// Register every basic component renderer.
pub fn register_all(c: &mut Catalog) {
    c.register("Text", text::Text);
    c.register("Image", image::Image);
    c.register("Icon", icon::Icon);
    c.register("Video", media::Media::Video);
    c.register("AudioPlayer", media::Media::Audio);
    c.register("Row", layout::Linear::Row);
    c.register("Column", layout::Linear::Column);
    c.register("List", layout::List);
    c.register("Card", card::Card);
    c.register("Tabs", tabs::Tabs);
    c.register("Modal", modal::Modal);
    c.register("Divider", divider::Divider);
    c.register("Button", button::Button);
    c.register("TextField", text_field::TextField);
    c.register("CheckBox", check_box::CheckBox);
    c.register("ChoicePicker", choice_picker::ChoicePicker);
    c.register("Slider", slider::Slider);
    c.register("DateTimeInput", date_time_input::DateTimeInput);
}
