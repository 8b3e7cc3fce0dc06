package org.claimdesk.ui.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;

/**
 * Loads FXML through one controller factory: each controller gets its ViewModel through its constructor.
 * (FXMLLoader asks the factory only for files that declare {@code fx:controller}.)
 */
public final class ViewFactory {
    private final Map<Class<?>, Supplier<?>> controllers = new HashMap<>();

    public <C> ViewFactory register(Class<C> type, Supplier<? extends C> supplier) {
        controllers.put(type, supplier);
        return this;
    }

    /** A loaded view and its controller. */
    public record Loaded<C>(Parent root, C controller) {
    }

    public <C> Loaded<C> load(Fxml fxml) {
        URL url = ViewFactory.class.getResource(fxml.resource());
        if (url == null) {
            throw new IllegalStateException("missing FXML resource " + fxml.resource());
        }
        FXMLLoader loader = new FXMLLoader(url);
        loader.setControllerFactory(this::create);
        try {
            Parent root = loader.load();
            loaded(loader.getNamespace().values());
            return new Loaded<>(root, loader.getController());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + fxml.resource() + ": " + e.getMessage(), e);
        }
    }

    /**
     * What the console does to the objects any FXML file made (its loader's namespace), pages and dialogs alike: their
     * tables follow the text size, their texts name the shortcut key as this platform does.
     */
    static void loaded(java.util.Collection<?> objects) {
        TextSize.tablesFollow(objects);
        Keys.sayIn(objects);
    }

    private Object create(Class<?> type) {
        Supplier<?> supplier = controllers.get(type);
        if (supplier == null) {
            throw new IllegalStateException("no controller registered for " + type.getName());
        }
        return supplier.get();
    }
}
