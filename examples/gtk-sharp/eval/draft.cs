using System;
using Gtk;

class Editor {
    static void Main () {
        Application.Init ();
        var window = new Window ("Editor");
        window.SetDefaultSize (800, 600);
        window.DeleteEvent += (o, e) => Application.Quit ();
        var box = new Box (Orientation.Vertical, 4);
        var bar = new MenuBar ();
        var file = new MenuItem ("File");
        bar.Append (file);
        box.PackStart (bar, false, false, 0);
        var view = new TextView ();
        TextBuffer buffer = view.Buffer;
        buffer.Text = "hello";
        var scrolled = new ScrolledWindow ();
        scrolled.Add (view);
        box.PackStart (scrolled, true, true, 0);
        var status = new Statusbar ();
        status.Push (0, "ready");
        box.PackEnd (status, false, false, 0);
        var grid = new Grid ();
        grid.Attach (new Label ("a"), 0, 0, 1, 1);
        var entry = new Entry ();
        entry.Text = "x";
        entry.Activated += (o, e) => status.Push (0, entry.Text);
        grid.Attach (entry, 1, 0, 1, 1);
        box.PackStart (grid, false, false, 0);
        var button = new Button ("Save");
        button.Clicked += (o, e) => window.SetInitialSize (1, 2);
        button.TooltipText = "save";
        box.PackStart (button, false, false, 0);
        var progress = new ProgressBar ();
        progress.Fraction = 0.3;
        box.PackStart (progress, false, false, 0);
        window.Add (box);
        window.ShowAll ();
        window.Maximize ();
        GLib.Timeout.Add (500, () => { progress.Pulse (); return true; });
        Application.Run ();
    }
}
